// Copy-in / copy-out arena: every call places its inputs, outputs and scratch in ONE wasm
// allocation, runs, copies the results out into fresh arrays and frees the allocation in a
// finally block. Nothing stays in wasm memory between calls, so there is nothing to leak and
// nothing for users to .delete() (the one exception, a layer's KV cache: ops/kv-cache.js, freed by
// cache.dispose(), its layer's dispose() or, late, garbage collection). What the caches hold is
// kept in a ledger per module, so that running out of memory names them rather than the inputs.
import { shapeSize } from './tensor.js';
import { bytesOf, typedByteLength, typedKind, typedLength } from './typed.js';
import { NO_BUFFERS, buffersWith } from './buffers.js';
import { callQuery } from './packed.js';
import { expectFiniteResult } from './overflow.js';
import { nonFiniteError, writeOut } from './validate.js';

// The (B, H, Tq, Tk) blocks: when one of them is the largest, turning off returnWeights / trace helps.
const SCORES_BLOCKS = new Set(buffersWith('s'));

const MIB = 2 ** 20;
// One wasm allocation holds less than 2 GiB: Emscripten 3.1.6's malloc takes the size through a
// signed 32-bit sbrk increment (larger requests return 0 even when memory could still grow).
const MAX_ARENA_BYTES = 2 ** 31 - 64 * 1024;
const MEMORY_LIMIT_MIB = 4096; // -sMAXIMUM_MEMORY=4GB (cpp/bindings/wasm.cmake)
const ALIGN = 16; // bytes: keeps every float buffer aligned for simd128 loads

// Sizes the binding reports as Infinity (scratch for dims whose tensors cannot fit at all) read "> 4096".
const mib = (bytes) => (Number.isFinite(bytes) ? (bytes / MIB).toFixed(bytes < 10 * MIB ? 2 : 0) : `> ${MEMORY_LIMIT_MIB}`);

// module -> Set of its holdings { bytes, owner, model? }: wasm memory held between calls (each KV
// cache's rows, owner its layer's identity; each transformer's block, model: true). A module
// discarded after a trap takes its ledger with it.
const LEDGERS = new WeakMap();

/** Records (or, with bytes updated, keeps) `holding` in `module`'s ledger of memory held between calls. */
export function recordHolding(module, holding) {
  let ledger = LEDGERS.get(module);
  if (ledger === undefined) LEDGERS.set(module, (ledger = new Set()));
  ledger.add(holding);
}

/** Takes `holding` out of `module`'s ledger (its memory was freed). */
export function releaseHolding(module, holding) {
  LEDGERS.get(module)?.delete(holding);
}

/**
 * { caches, layers, bytes, largest, models, modelBytes } held between calls in `module`: what the
 * memory-limit errors report (bytes and largest: the caches'). Caches and models dropped without
 * dispose() count until the garbage collector has freed them.
 */
export function heldMemory(module) {
  const owners = new Set();
  let bytes = 0;
  let largest = 0;
  let caches = 0;
  let models = 0;
  let modelBytes = 0;
  for (const holding of LEDGERS.get(module) ?? []) {
    if (holding.model) {
      models += 1;
      modelBytes += holding.bytes;
      continue;
    }
    caches += 1;
    owners.add(holding.owner);
    bytes += holding.bytes;
    largest = Math.max(largest, holding.bytes);
  }
  return { caches, layers: owners.size, bytes, largest, models, modelBytes };
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The RangeError for `bytes` the module could not grow to hold, for `request` (a function's name,
 * and what it was allocating when that is not its arena): the memory now and its limit, then what
 * holds it between calls and what to do.
 */
export function outOfMemoryError(module, request, bytes) {
  const held = heldMemory(module);
  const memory = `memory now ${mib(module.HEAPU8.length)} MiB, limit ${MEMORY_LIMIT_MIB} MiB`;
  const holders =
    held.caches === 0
      ? 'no KV cache holds any of it between calls'
      : `${plural(held.caches, 'live KV cache')} of ${plural(held.layers, 'layer')} hold ${mib(held.bytes)} MiB of it, the largest ${mib(held.largest)} MiB`;
  const advice =
    held.caches === 0
      ? 'use smaller inputs'
      : 'dispose the caches no longer needed (cache.dispose(), or layer.dispose() for all of its caches; ' +
        'a cache dropped without dispose() is freed only after garbage collection, once the event loop turns), or use smaller inputs';
  const models =
    held.models === 0
      ? ''
      : `; ${plural(held.models, 'live transformer')} hold${held.models === 1 ? 's' : ''} ${mib(held.modelBytes)} MiB (model.dispose() frees one)`;
  return new RangeError(
    `${request} needs ${mib(bytes)} MiB of wasm memory but the module could not grow to hold it (${memory}; ${holders}${models}): ${advice}`,
  );
}

/**
 * Checks that `module` can allocate `bytes` in one block now (allocated and freed at once), before
 * code that allocates inside the core, where a failed allocation aborts instead of returning 0:
 * the RangeError of a request beyond one allocation, or outOfMemoryError's.
 */
export function expectAllocatable(module, request, bytes) {
  if (!(bytes <= MAX_ARENA_BYTES)) {
    throw new RangeError(
      `${request} needs ${mib(bytes)} MiB of wasm memory in one block, more than the ${mib(MAX_ARENA_BYTES)} MiB one allocation can hold: use a smaller model or batch`,
    );
  }
  const probe = module._malloc(bytes) >>> 0;
  if (probe === 0) throw outOfMemoryError(module, request, bytes);
  module._free(probe);
}

/** The RangeError for a request beyond one allocation, naming its largest block (built only on failure). */
function tooLargeError(fn, blocks, total) {
  let largest = { name: '', bytes: 0 };
  for (const name of Object.keys(blocks)) {
    const bytes = blockBytes(blocks[name]);
    if (bytes > largest.bytes) largest = { name, bytes };
  }
  return new RangeError(
    `${fn} needs ${mib(total)} MiB of wasm memory (${largest.name} alone ${mib(largest.bytes)} MiB), ` +
      `more than the ${mib(MAX_ARENA_BYTES)} MiB one call can use: use smaller inputs` +
      (SCORES_BLOCKS.has(largest.name) ? ' or turn off returnWeights / trace' : ''),
  );
}

// A block is absent (undefined, null), another block's name (a string: an output written in place
// of that input), a number of floats (output, scratch), an input tensor { data, shape } (checked
// where it is copied in: its data must still hold the shape's elements), or a typed array this
// library made itself.
const isTensor = (block) => typeof block === 'object' && typedKind(block) === undefined;
const ELEMENT_BYTES = { Float32Array: 4, Int32Array: 4, Uint8Array: 1, Uint8ClampedArray: 1 };

// Bytes of a block; 0 when absent or an alias. Sizes of inputs come from their shapes, which this
// library copied when it checked them; their data is checked against them in copyIn.
function blockBytes(block) {
  if (block === undefined || block === null || typeof block === 'string') return 0;
  if (typeof block === 'number') return block * 4;
  if (isTensor(block)) return shapeSize(block.shape) * ELEMENT_BYTES[typedKind(block.data)];
  return typedByteLength(block);
}
const aligned = (bytes) => Math.ceil(bytes / ALIGN) * ALIGN;

// Copies an input into wasm memory at byte address `at` through the heap view of its own type, so
// no temporary Uint8Array view is made (set() reads a typed array source by its internal slots,
// whatever its own properties claim). module.HEAP* are re-created by the glue whenever memory
// grows, so reading them here (after the malloc) never sees a detached view.
function copyIn(module, fn, name, block, at) {
  let data = block;
  if (isTensor(block)) {
    data = block.data;
    const wanted = shapeSize(block.shape);
    const length = typedLength(data);
    // The data was checked against the shape when it was converted; code that ran since (a getter
    // of a later argument) may have detached or resized its buffer.
    if (length !== wanted) {
      throw new RangeError(
        `${fn}: ${name} holds ${length} elements now but its shape [${block.shape.join(', ')}] needs ${wanted} (was its buffer detached or resized during the call?)`,
      );
    }
  }
  const kind = typedKind(data);
  if (kind === 'Float32Array') module.HEAPF32.set(data, at >>> 2);
  else if (kind === 'Int32Array') module.HEAP32.set(data, at >>> 2);
  else if (kind === 'Uint8Array') module.HEAPU8.set(data, at);
  else module.HEAPU8.set(bytesOf(data), at);
  // An input converted with inputTensor's scanInArena: its finiteness check, run on the copy.
  if (data !== block && Object.hasOwn(block, 'unscanned')) {
    const bad = module.firstNonFinite(at, typedLength(data));
    if (bad >= 0) throw nonFiniteError(fn, block.unscanned, block, bad);
  }
}

// One Buffers object (all 33 addresses) kept between calls: building a fresh 33-field object per
// call was a visible part of a small call's time. A nested arena (none today) gets its own.
let spareBuffers = null;

function takeBuffers() {
  const buffers = spareBuffers ?? { ...NO_BUFFERS };
  spareBuffers = null;
  return buffers;
}

function returnBuffers(buffers, names) {
  for (let i = 0; i < names.length; i++) buffers[names[i]] = 0;
  spareBuffers = buffers;
}

/**
 * The bytes an arena for `blocks` takes; a RangeError when one wasm allocation cannot hold them.
 * Also used before a call is split across workers, so it fails exactly as the synchronous call would.
 */
export function expectArenaFits(fn, blocks, names = Object.keys(blocks)) {
  let total = 0;
  for (let i = 0; i < names.length; i++) total += aligned(blockBytes(blocks[names[i]]));
  if (!(total <= MAX_ARENA_BYTES)) throw tooLargeError(fn, blocks, total);
  return total;
}

/**
 * Runs `run(buffers, read)` with the blocks placed in wasm memory.
 * blocks: { name: { data, shape } (an input tensor, copied in after its data is checked against
 *   its shape) | TypedArray (an input this library made, copied in) | number (floats to reserve:
 *   output or scratch) | string (the name of an earlier block: an output the core writes in place
 *   of that input, for ops whose inputs and outputs may alias; it saves the memory and a pass of
 *   memory traffic) }; names are the binding's Buffers fields (own properties only: a polluted
 *   Object.prototype adds none); undefined or null blocks are skipped (address 0).
 * run receives `buffers` (name -> byte address, 0 for absent) and `read(name, into)`, which copies
 *   a float block out into a fresh Float32Array, or into the caller's `into` (options.out, checked
 *   by validate.js outOption) and returns that, and throws overflow.js's RangeError when a main
 *   result holds NaN or an infinity (an intermediate overflowed float32) before writing anything.
 * This is on the path of every call (a 4x4 attention spends much of its few microseconds here and
 * in the binding call), so it allocates nothing but the read closure and the results.
 */
export function withArena(module, fn, blocks, run) {
  const names = Object.keys(blocks);
  const total = expectArenaFits(fn, blocks, names);
  const base = module._malloc(Math.max(total, ALIGN)) >>> 0;
  if (base === 0) throw outOfMemoryError(module, fn, total);
  const stack = module.stackSave();
  const buffers = takeBuffers();
  try {
    let offset = base;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const block = blocks[name];
      if (block === undefined || block === null) continue;
      if (typeof block === 'string') {
        buffers[name] = buffers[block];
        continue;
      }
      buffers[name] = offset;
      if (typeof block !== 'number') copyIn(module, fn, name, block, offset);
      offset += aligned(blockBytes(block));
    }
    // module.HEAPF32 again at read time: the call may have grown memory. slice() copies out of wasm memory.
    const read = (name, into) => {
      const at = buffers[name];
      const block = typeof blocks[name] === 'string' ? blocks[blocks[name]] : blocks[name];
      const count = blockBytes(block) / 4;
      // A main result's NaN or infinity (overflow.js), scanned in wasm memory by the core's kernel.
      expectFiniteResult(fn, blocks, name, () => module.firstNonFinite(at, count));
      if (into !== undefined) return writeOut(fn, into, module.HEAPF32.subarray(at >>> 2, (at >>> 2) + count));
      return module.HEAPF32.slice(at >>> 2, (at >>> 2) + count);
    };
    return run(buffers, read);
  } catch (error) {
    // A RangeError thrown inside wasm (the binding's own checks) unwinds the wasm frames without
    // restoring the C stack pointer; put it back so repeated failures cannot exhaust the stack.
    module.stackRestore(stack);
    throw error;
  } finally {
    returnBuffers(buffers, names);
    module._free(base);
  }
}

/**
 * The scratch size (floats) the binding's `entry` (e.g. 'sdpaScratchFloats') reports for `args`,
 * remembered per module for the last dims seen: it depends only on the sizes, and asking the
 * binding costs more than a small call's arithmetic. `sizeKeys` names the fields of args it depends on.
 * Infinity: the sizes need more scratch than one wasm allocation holds (expectArenaFits says so).
 */
export function scratchFloats(module, entry, args, sizeKeys) {
  let memo = scratchMemo.get(module);
  if (memo === undefined) scratchMemo.set(module, (memo = new Map()));
  const last = memo.get(entry);
  if (last !== undefined && sameSizes(last.args, args, sizeKeys)) return last.floats;
  const floats = callBinding(module, () => callQuery(module, entry, args));
  memo.set(entry, { args, floats });
  return floats;
}
const scratchMemo = new WeakMap(); // module -> Map(entry -> { args, floats })

function sameSizes(a, b, keys) {
  for (let i = 0; i < keys.length; i++) if (a[keys[i]] !== b[keys[i]]) return false;
  return true;
}

/** Calls the binding outside an arena (scratch sizes): same stack repair if it throws. */
export function callBinding(module, call) {
  const stack = module.stackSave();
  try {
    return call();
  } catch (error) {
    module.stackRestore(stack);
    throw error;
  }
}
