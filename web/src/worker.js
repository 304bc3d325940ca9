// 'attention-lab/worker': large attention off the main thread. createAttentionWorker() is the
// parallel API (threads/parallel.js) over a pool of one worker: the same methods as loadAttention(),
// returning Promises; small calls still run inline, where a round trip would cost more.
import { loadParallelAttention } from './threads/parallel.js';

/** Options as loadAttention's ({ simd, wasmUrl, wasmBinary }) plus inlineBelow; -> ParallelAttention. */
export async function createAttentionWorker(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`createAttentionWorker: options must be an object { simd, wasmUrl, wasmBinary, inlineBelow }, got ${options}`);
  }
  if (Object.hasOwn(options, 'threads')) {
    throw new TypeError('createAttentionWorker: runs one worker; for more, use loadAttention({ threads })');
  }
  return loadParallelAttention({ ...options, threads: 1 });
}
