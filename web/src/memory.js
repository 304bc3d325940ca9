// Copy-in / copy-out arena: every call places its inputs, outputs and scratch in ONE wasm
// allocation, runs, copies the results out into fresh arrays and frees the allocation in a
// finally block. Nothing stays in wasm memory between calls, so there is nothing to leak and
// nothing for users to .delete().

/** Every buffer name the binding's Buffers value_object declares (cpp/bindings/args.hpp). */
const BUFFER_NAMES = [
  'x', 'y', 'dy', 'dx', 'q', 'k', 'v', 'dout', 'out', 'lse', 'weights', 'scores', 'softcapped', 'masked',
  'heads', 'dq', 'dk', 'dv', 'w', 'wq', 'wk', 'wv', 'wo', 'dw', 'dwq', 'dwk', 'dwv', 'dwo',
  'validLens', 'boolMask', 'floatMask', 'scratch', 'alibiSlopes',
];
export const NO_BUFFERS = Object.freeze(Object.fromEntries(BUFFER_NAMES.map((name) => [name, 0])));

const MIB = 2 ** 20;
// One wasm allocation holds less than 2 GiB: Emscripten 3.1.6's malloc takes the size through a
// signed 32-bit sbrk increment (larger requests return 0 even when memory could still grow).
const MAX_ARENA_BYTES = 2 ** 31 - 64 * 1024;
const MEMORY_LIMIT_MIB = 4096; // -sMAXIMUM_MEMORY=4GB (cpp/bindings/wasm.cmake)
const ALIGN = 16; // bytes: keeps every float buffer aligned for simd128 loads

// Sizes the binding reports as Infinity (scratch for dims whose tensors cannot fit at all) read "> 4096".
const mib = (bytes) => (Number.isFinite(bytes) ? (bytes / MIB).toFixed(bytes < 10 * MIB ? 2 : 0) : `> ${MEMORY_LIMIT_MIB}`);

/** The RangeError for a request beyond one allocation, naming its largest block (built only on failure). */
function tooLargeError(fn, blocks, total) {
  let largest = { name: '', bytes: 0 };
  for (const name in blocks) {
    const bytes = blockBytes(blocks[name]);
    if (bytes > largest.bytes) largest = { name, bytes };
  }
  return new RangeError(
    `${fn} needs ${mib(total)} MiB of wasm memory (${largest.name} alone ${mib(largest.bytes)} MiB), ` +
      `more than the ${mib(MAX_ARENA_BYTES)} MiB one call can use: use smaller inputs` +
      (['weights', 'scores', 'masked', 'softcapped'].includes(largest.name) ? ' or turn off returnWeights / trace' : ''),
  );
}

// Bytes of a block: a typed array (input) or a number of floats (output, scratch); 0 when absent
// or when the block is another block's name (an output written in place of that input).
const blockBytes = (block) =>
  block === undefined || block === null || typeof block === 'string' ? 0 : typeof block === 'number' ? block * 4 : block.byteLength;
const aligned = (bytes) => Math.ceil(bytes / ALIGN) * ALIGN;

// Copies an input into wasm memory at byte address `at` through the heap view of its own type, so
// no temporary Uint8Array view is made. module.HEAP* are re-created by the glue whenever memory
// grows, so reading them here (after the malloc) never sees a detached view.
function copyIn(module, block, at) {
  if (block instanceof Float32Array) module.HEAPF32.set(block, at >>> 2);
  else if (block instanceof Int32Array) module.HEAP32.set(block, at >>> 2);
  else if (block instanceof Uint8Array) module.HEAPU8.set(block, at);
  else module.HEAPU8.set(new Uint8Array(block.buffer, block.byteOffset, block.byteLength), at);
}

// One Buffers object (all 33 addresses) kept between calls: building a fresh 32-field object per
// call was a visible part of a small call's time. A nested arena (none today) gets its own.
let spareBuffers = null;

function takeBuffers() {
  const buffers = spareBuffers ?? { ...NO_BUFFERS };
  spareBuffers = null;
  return buffers;
}

function returnBuffers(buffers, blocks) {
  for (const name in blocks) buffers[name] = 0;
  spareBuffers = buffers;
}

/**
 * The bytes an arena for `blocks` takes; a RangeError when one wasm allocation cannot hold them.
 * Also used before a call is split across workers, so it fails exactly as the synchronous call would.
 */
export function expectArenaFits(fn, blocks) {
  let total = 0;
  for (const name in blocks) total += aligned(blockBytes(blocks[name]));
  if (!(total <= MAX_ARENA_BYTES)) throw tooLargeError(fn, blocks, total);
  return total;
}

/**
 * Runs `run(buffers, read)` with the blocks placed in wasm memory.
 * blocks: { name: TypedArray (an input, copied in) | number (floats to reserve: output or scratch)
 *   | string (the name of an earlier block: an output the core writes in place of that input, for
 *   ops whose inputs and outputs may alias; it saves the memory and a pass of memory traffic) };
 *   names are the binding's Buffers fields; undefined or null blocks are skipped (address 0).
 * run receives `buffers` (name -> byte address, 0 for absent) and `read(name)`, which copies a
 *   float block out into a fresh Float32Array.
 * This is on the path of every call (a 4x4 attention spends much of its few microseconds here and
 * in Embind), so it allocates nothing but the read closure and the results.
 */
export function withArena(module, fn, blocks, run) {
  const total = expectArenaFits(fn, blocks);
  const base = module._malloc(Math.max(total, ALIGN)) >>> 0;
  if (base === 0) {
    throw new RangeError(
      `${fn} needs ${mib(total)} MiB of wasm memory but the module could not grow to hold it ` +
        `(memory now ${mib(module.HEAPU8.length)} MiB, limit ${MEMORY_LIMIT_MIB} MiB): use smaller inputs`,
    );
  }
  const stack = module.stackSave();
  const buffers = takeBuffers();
  try {
    let offset = base;
    for (const name in blocks) {
      const block = blocks[name];
      if (block === undefined || block === null) continue;
      if (typeof block === 'string') {
        buffers[name] = buffers[block];
        continue;
      }
      buffers[name] = offset;
      if (typeof block !== 'number') copyIn(module, block, offset);
      offset += aligned(blockBytes(block));
    }
    // module.HEAPF32 again at read time: the call may have grown memory. slice() copies out of wasm memory.
    const read = (name) => {
      const start = buffers[name] >>> 2;
      const block = typeof blocks[name] === 'string' ? blocks[blocks[name]] : blocks[name];
      return module.HEAPF32.slice(start, start + blockBytes(block) / 4);
    };
    return run(buffers, read);
  } catch (error) {
    // A RangeError thrown inside wasm (the binding's own checks) unwinds the wasm frames without
    // restoring the C stack pointer; put it back so repeated failures cannot exhaust the stack.
    module.stackRestore(stack);
    throw error;
  } finally {
    returnBuffers(buffers, blocks);
    module._free(base);
  }
}

/**
 * The scratch size (floats) the binding's `entry` (e.g. 'sdpaScratchFloats') reports for `args`,
 * remembered per module for the last dims seen: it depends only on the sizes, and asking Embind
 * costs more than a small call's arithmetic. `sizeKeys` names the fields of args it depends on.
 */
export function scratchFloats(module, entry, args, sizeKeys) {
  let memo = scratchMemo.get(module);
  if (memo === undefined) scratchMemo.set(module, (memo = new Map()));
  const last = memo.get(entry);
  if (last !== undefined && sameSizes(last.args, args, sizeKeys)) return last.floats;
  const floats = callBinding(module, () => module[entry](args));
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
