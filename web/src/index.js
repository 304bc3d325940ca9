// attention-lab's public API: see index.d.ts for shapes and options. loadAttention() returns the
// Attention object over one loaded wasm module (api.js), or, with { threads }, the
// ParallelAttention over a pool of workers (threads/parallel.js).
import { createAttention } from './api.js';
import { loadModule } from './boundary/loader.js';

export { relaxedSimdSupported, simdSupported } from './boundary/loader.js';

/**
 * Loads (once per backend) and returns the attention module: { simd, wasmUrl, wasmBinary }.
 * With { threads } (and optionally inlineBelow): a ParallelAttention whose methods return Promises.
 */
export async function loadAttention(options = {}) {
  if (options !== null && typeof options === 'object' && Object.hasOwn(options, 'threads')) {
    // Loaded on demand: the default, single-threaded API never pulls in the pool and its worker.
    const { loadParallelAttention } = await import('./threads/parallel.js');
    return loadParallelAttention(options);
  }
  const { runtime } = await loadModule(options);
  return createAttention(runtime);
}
export { toTensor } from './to-tensor.js';
