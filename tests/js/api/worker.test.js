// The 'attention-lab/worker' entry: createAttentionWorker() runs the API on one module worker (a Web
// Worker in Chromium, worker_threads in Node) and answers as the synchronous API does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../../package.json';
import { loadAttention } from '../../../web/src/index.js';
import { createAttentionWorker } from '../../../web/src/worker.js';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';

// Why not exact: the worker runs the same build on the same inputs as one whole call, so results
// are normally bit-identical; the tolerance only allows a kernel that tiles differently per
// instance. A wrong tensor or a mixed-up output is off by far more.
const SAME = { atol: 1e-6, rtol: 1e-6 };

describe.each(BACKENDS)('createAttentionWorker ($backend)', ({ simd, backend }) => {
  let sync;
  let worker;
  beforeAll(async () => {
    sync = await loadBackend({ simd, backend });
    worker = await createAttentionWorker({ simd, inlineBelow: 0 }); // every call goes to the worker
  });
  afterAll(() => worker.dispose());

  it('is one worker with the requested build', () => {
    expect(worker.threads).toBe(1);
    expect(worker.backend).toBe(backend);
    expect(worker.arch).toBe(sync.arch);
  });

  it('computes causal GQA attention and its gradients off the calling thread, as the synchronous API', async () => {
    const rand = seededRandom(21);
    const q = randomTensor(rand, [2, 4, 33, 16]);
    const k = randomTensor(rand, [2, 2, 40, 16]);
    const v = randomTensor(rand, [2, 2, 40, 8]);
    const dout = randomTensor(rand, [2, 4, 33, 8]);
    const options = { causal: 'bottom-right', returnLse: true };
    const result = await worker.scaledDotProductAttention(q, k, v, options);
    const expected = sync.scaledDotProductAttention(q, k, v, options);
    expectClose(result.output, expected.output, { ...SAME, label: 'output' });
    expectClose(result.lse, expected.lse, { ...SAME, label: 'lse' });
    const grads = await worker.scaledDotProductAttentionBackward(q, k, v, dout, { causal: 'bottom-right' });
    const expectedGrads = sync.scaledDotProductAttentionBackward(q, k, v, dout, { causal: 'bottom-right' });
    for (const name of ['dq', 'dk', 'dv']) expectClose(grads[name], expectedGrads[name], { ...SAME, label: name });
  });

  it('answers several calls in flight, each with its own result', async () => {
    const rand = seededRandom(22);
    const inputs = [1, 2, 3].map((n) => randomTensor(rand, [n * 5, 4]));
    const results = await Promise.all(inputs.map((x) => worker.scaledDotProductAttention(x, x, x)));
    results.forEach((result, i) => {
      const x = inputs[i];
      expectClose(result.output, sync.scaledDotProductAttention(x, x, x).output, { ...SAME, label: `call ${i}` });
    });
  });

  it('rejects bad input with the synchronous error', async () => {
    const x = [
      [1, 2],
      [3, 4],
    ];
    const message = (() => {
      try {
        sync.scaledDotProductAttention(x, x, [[1, 2, 3]]);
      } catch (error) {
        return error.message;
      }
    })();
    expect(message).toMatch(/^scaledDotProductAttention: v must have shape/);
    await expect(worker.scaledDotProductAttention(x, x, [[1, 2, 3]])).rejects.toThrow(RangeError);
    await expect(worker.scaledDotProductAttention(x, x, [[1, 2, 3]])).rejects.toThrow(message);
  });
});

describe('the worker entry', () => {
  it('is exported as attention-lab/worker, types first', () => {
    const entry = packageJson.exports['./worker'];
    expect(Object.keys(entry)).toEqual(['types', 'default']);
    expect(entry).toEqual({ types: './web/src/worker.d.ts', default: './web/src/worker.js' });
  });

  it('takes no threads option (it is one worker) and checks its options', async () => {
    await expect(createAttentionWorker({ threads: 2 })).rejects.toThrow(TypeError);
    await expect(createAttentionWorker(null)).rejects.toThrow('createAttentionWorker: options must be an object');
    await expect(createAttentionWorker({ simd: 'yes' })).rejects.toThrow("loadAttention: simd must be 'relaxed', true, false or undefined");
  });

  it('after dispose(), calls reject', async () => {
    const worker = await createAttentionWorker({ inlineBelow: 0 });
    worker.dispose();
    await expect(worker.scaledDotProductAttention([[1]], [[1]], [[1]])).rejects.toThrow('this parallel attention was disposed');
  });

  it('leaves the default loadAttention() synchronous', async () => {
    const attn = await loadAttention();
    const result = attn.scaledDotProductAttention([[1]], [[1]], [[2]]);
    expect(result.output.data).toEqual(Float32Array.of(2));
  });
});
