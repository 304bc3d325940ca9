// 'attention-lab/worker': run large attention off the main thread.
//
//   import { createAttentionWorker } from 'attention-lab/worker';
//   const attn = await createAttentionWorker();
//   const { output } = await attn.scaledDotProductAttention(q, k, v, { causal: true });
//   attn.dispose();
//
// One module worker (a Web Worker in browsers, worker_threads in Node) with its own wasm module;
// bundlers pick the worker script up from `new Worker(new URL('./threads/worker-main.js', import.meta.url))`.
import type { ParallelAttention, ParallelOptions } from './index.js';

export type {
  ParallelAttention,
  ParallelAttentionLayer,
  ParallelTransformer,
  TransformerConfig,
  AttentionResult,
  SdpaGradients,
  Tensor,
  TensorLike,
} from './index.js';

/** loadAttention's options ({ simd, wasmUrl, wasmBinary }) and inlineBelow; the pool is one worker. */
export type AttentionWorkerOptions = Omit<ParallelOptions, 'threads'>;

/** The Attention API on one worker: every method returns a Promise; dispose() terminates it. */
export function createAttentionWorker(options?: AttentionWorkerOptions): Promise<ParallelAttention>;
