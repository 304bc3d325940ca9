// A consumer of 'attention-lab/worker' (web/src/worker.d.ts): createAttentionWorker with every
// option, its result typed as the threaded API, and every re-exported type.
import {
  createAttentionWorker,
  type AttentionResult,
  type AttentionWorkerOptions,
  type ParallelAttention,
  type ParallelAttentionLayer,
  type ParallelTransformer,
  type TransformerConfig,
  type SdpaGradients,
  type Tensor,
  type TensorLike,
} from 'attention-lab/worker';
import type { Attention, LoadOptions } from 'attention-lab';
import { expectType, type Equal } from './assert.js';

const options = {
  simd: false,
  wasmUrl: 'https://example.com/attention.wasm',
  wasmBinary: new ArrayBuffer(8),
  inlineBelow: 0,
} satisfies Required<AttentionWorkerOptions>;
// The worker runs any of the three builds loadAttention can pick (the pool passes 'relaxed' on),
// and names it as the synchronous API does.
expectType<Equal<AttentionWorkerOptions['simd'], LoadOptions['simd']>>(true);
expectType<Equal<ParallelAttention['build'], Attention['build']>>(true);
const relaxed = { ...options, simd: 'relaxed' } satisfies Required<AttentionWorkerOptions>;

export async function useWorker(): Promise<number> {
  const worker: ParallelAttention = await createAttentionWorker(options);
  await createAttentionWorker();
  (await createAttentionWorker(relaxed)).dispose();
  expectType<Equal<Awaited<ReturnType<ParallelAttention['attention']>>, ReturnType<Attention['attention']>>>(true);
  const x: TensorLike = [
    [
      [1, 0],
      [0, 1],
    ],
  ];
  const result: AttentionResult = await worker.scaledDotProductAttention(x, x, x, { causal: true });
  const grads: SdpaGradients = await worker.scaledDotProductAttentionBackward(x, x, x, result.output);
  const layer: ParallelAttentionLayer = await worker.selfAttention({ dIn: 2 });
  const out: Tensor = (await layer.forward(x)).output;
  // training off the main thread: the model lives on the worker
  const config: TransformerConfig = { vocab: 4, dModel: 2, layers: 1, heads: 1, maxLength: 3, positions: 'learned', mlp: 0 };
  const model: ParallelTransformer = await worker.transformer(config);
  const { loss } = await model.trainStep([[0, 1, 2]], { optimizer: { learningRate: 0.01 } });
  await model.dispose();
  worker.dispose();
  return worker.threads + grads.dq.data.length + out.data.length + loss;
}

export async function misuse(): Promise<void> {
  // @ts-expect-error one worker: `threads` belongs to loadAttention({ threads })
  await createAttentionWorker({ threads: 2 });
}
