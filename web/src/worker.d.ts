// 'attention-lab/worker': run large attention off the main thread.
//
//   import { createAttentionWorker } from 'attention-lab/worker';
//   const attn = await createAttentionWorker();
//   const { output } = await attn.scaledDotProductAttention(q, k, v, { causal: true });
//   attn.dispose();
//
// One module worker (a Web Worker in browsers, worker_threads in Node) with its own wasm module;
// bundlers pick the worker script up from `new Worker(new URL('./worker-main.js', import.meta.url))`.
import type { LoadOptions, ParallelAttention } from './index.js';

export type {
  ParallelAttention,
  ParallelAttentionLayer,
  AttentionResult,
  SdpaGradients,
  Tensor,
  TensorLike,
} from './index.js';

export interface AttentionWorkerOptions extends LoadOptions {
  /**
   * Calls smaller than this many multiply-adds (B * H * Tq * Tk * (d + dv)) run inline on the
   * calling thread (a round trip would cost more). Default 2^20; 0 sends every call to the worker.
   */
  inlineBelow?: number;
}

/** The Attention API on one worker: every method returns a Promise; dispose() terminates it. */
export function createAttentionWorker(options?: AttentionWorkerOptions): Promise<ParallelAttention>;
