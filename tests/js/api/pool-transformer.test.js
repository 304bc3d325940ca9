// loadAttention({ threads }).transformer: a model kept on a worker trains off the calling thread
// with exactly the synchronous model's numbers (the same build and code in both), rejects bad input
// with the synchronous error, and is gone once disposed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { loadAttention } from '../../../web/src/index.js';
import { inductionTask } from '../../../web/model/train/tasks.js';
import { expectSameError } from '../support/thrown.js';

const CONFIG = { vocab: 26, dModel: 16, layers: 2, heads: 2, maxLength: 24, positions: 'rope', mlp: 32, seed: 7 };
const optimizer = { learningRate: 3e-3, clip: 1 };

/** The synchronous call's error, then the same class and message from the pool's. */

describe.each(BACKENDS)('a transformer on a worker ($backend)', ({ simd, backend }) => {
  let sync;
  let pool;
  beforeAll(async () => {
    sync = await loadBackend({ simd, backend });
    pool = await loadAttention({ simd, threads: 2 });
  });
  afterAll(() => pool?.dispose());

  it('trains step for step as the synchronous model, bit for bit', async () => {
    const local = sync.transformer(CONFIG);
    const remote = await pool.transformer(CONFIG);
    expect(remote.config).toEqual(local.config);
    expect(remote.layout).toEqual(local.layout);
    expect(remote.parameterCount).toBe(local.parameterCount);
    const task = inductionTask({ seed: 4 });
    for (let step = 0; step < 5; step++) {
      const batch = task.next(8);
      const options = { targets: batch.targets, lossMask: batch.lossMask, optimizer };
      expect((await remote.trainStep(batch.tokens, options)).loss).toBe(local.trainStep(batch.tokens, options).loss);
    }
    expect(remote.steps).toBe(5);
    const probe = task.next(2);
    expect(await remote.forward(probe.tokens, { trace: true })).toEqual(local.forward(probe.tokens, { trace: true }));
    expect(await remote.gradients(probe.tokens)).toEqual(local.gradients(probe.tokens));
    expect(await remote.parameters()).toEqual(local.parameters());
    // parameters set from the calling thread reach the worker's model
    const fresh = sync.transformer({ ...CONFIG, seed: 8 });
    await remote.setParameters(fresh.parameters());
    local.setParameters(fresh.parameters());
    expect((await remote.forward(probe.tokens)).logits).toEqual(local.forward(probe.tokens).logits);
    await remote.dispose();
    await expect(remote.forward(probe.tokens)).rejects.toThrow('transformer.forward: this model was disposed');
    for (const model of [local, fresh]) model.dispose();
  });

  it('rejects bad input with the synchronous error, raised in the worker', async () => {
    const local = sync.transformer(CONFIG);
    const remote = await pool.transformer(CONFIG);
    const tokens = [[0, 1, 2]];
    await expectSameError(
      () => sync.transformer({ ...CONFIG, dModel: 15 }),
      () => pool.transformer({ ...CONFIG, dModel: 15 }),
    );
    await expectSameError(
      () => local.forward([[0, 26]]),
      () => remote.forward([[0, 26]]),
    );
    await expectSameError(
      () => local.forward([Array(25).fill(0)]),
      () => remote.forward([Array(25).fill(0)]),
    );
    await expectSameError(
      () => local.gradients(tokens, { targets: [[1, 2]] }),
      () => remote.gradients(tokens, { targets: [[1, 2]] }),
    );
    await expectSameError(
      () => local.trainStep(tokens, { optimizer: { learningRate: -1 } }),
      () => remote.trainStep(tokens, { optimizer: { learningRate: -1 } }),
    );
    await expectSameError(
      () => local.setParameters({}),
      () => remote.setParameters({}),
    );
    expect(remote.steps).toBe(0);
    // a tokens tensor of a class with data and shape as getters (a clone would drop them) is read on the calling thread first
    class Tokens {
      get data() {
        return Int32Array.of(0, 1, 2);
      }
      get shape() {
        return [1, 3];
      }
    }
    const withGetters = new Tokens();
    expect((await remote.forward(withGetters)).logits).toEqual(local.forward(withGetters).logits);
    await remote.dispose();
    local.dispose();
  });
});
