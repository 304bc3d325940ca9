// Copy-in / copy-out arena: every call places its inputs, outputs and scratch in ONE wasm
// allocation, runs, copies the results out into fresh arrays and frees the allocation in a
// finally block. Nothing stays in wasm memory between calls, so there is nothing to leak and
// nothing for users to .delete().

/** Every buffer name the binding's Buffers value_object declares (cpp/bindings/args.hpp). */
const BUFFER_NAMES = [
  'x', 'y', 'dy', 'dx', 'q', 'k', 'v', 'dout', 'out', 'lse', 'weights', 'scores', 'softcapped', 'masked',
  'heads', 'dq', 'dk', 'dv', 'w', 'wq', 'wk', 'wv', 'wo', 'dw', 'dwq', 'dwk', 'dwv', 'dwo',
  'validLens', 'boolMask', 'floatMask', 'scratch',
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

/**
 * Runs `run(buffers, read)` with the blocks placed in wasm memory.
 * blocks: { name: TypedArray (an input, copied in) | number (floats to reserve: output or scratch) };
 *   names are the binding's Buffers fields; undefined or null blocks are skipped (address 0).
 * run receives `buffers` (name -> byte address, 0 for absent) and `read(name)`, which copies a
 *   float block out into a fresh Float32Array.
 */
export function withArena(module, fn, blocks, run) {
  const layout = [];
  let total = 0;
  let largest = { name: '', bytes: 0 };
  for (const [name, block] of Object.entries(blocks)) {
    if (block === undefined || block === null) continue;
    const bytes = typeof block === 'number' ? block * 4 : block.byteLength;
    layout.push({ name, block, offset: total, bytes });
    if (bytes > largest.bytes) largest = { name, bytes };
    total += Math.ceil(bytes / ALIGN) * ALIGN;
  }
  if (!(total <= MAX_ARENA_BYTES)) {
    throw new RangeError(
      `${fn} needs ${mib(total)} MiB of wasm memory (${largest.name} alone ${mib(largest.bytes)} MiB), ` +
        `more than the ${mib(MAX_ARENA_BYTES)} MiB one call can use: use smaller inputs` +
        (['weights', 'scores', 'masked', 'softcapped'].includes(largest.name) ? ' or turn off returnWeights / trace' : ''),
    );
  }
  const base = module._malloc(Math.max(total, ALIGN)) >>> 0;
  if (base === 0) {
    throw new RangeError(
      `${fn} needs ${mib(total)} MiB of wasm memory but the module could not grow to hold it ` +
        `(memory now ${mib(module.HEAPU8.length)} MiB, limit ${MEMORY_LIMIT_MIB} MiB): use smaller inputs`,
    );
  }
  const stack = module.stackSave();
  try {
    const buffers = { ...NO_BUFFERS };
    // Views are made after the allocation: memory may have grown and detached older views.
    const heap = module.HEAPU8;
    for (const { name, block, offset } of layout) {
      buffers[name] = base + offset;
      if (typeof block !== 'number') {
        heap.set(new Uint8Array(block.buffer, block.byteOffset, block.byteLength), base + offset);
      }
    }
    const read = (name) => {
      const { offset, bytes } = layout.find((entry) => entry.name === name);
      // module.HEAPU8 again: the call may have grown memory. slice() copies out of wasm memory.
      return new Float32Array(module.HEAPU8.buffer, base + offset, bytes / 4).slice();
    };
    return run(buffers, read);
  } catch (error) {
    // A RangeError thrown inside wasm (the binding's own checks) unwinds the wasm frames without
    // restoring the C stack pointer; put it back so repeated failures cannot exhaust the stack.
    module.stackRestore(stack);
    throw error;
  } finally {
    module._free(base);
  }
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
