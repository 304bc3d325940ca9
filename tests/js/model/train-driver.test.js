// The training driver (web/model/train/driver.js) the lab and a live-training figure share: on the
// synchronous API, it trains, probes every few steps, notes each threshold crossing once with its
// step, keeps snapshots (each with its heads' pipeline examples of then), pauses, steps and resets to the same first losses; ablation zeroes exactly
// one head's columns of out.weight and refuses a head that does not exist.
import { describe, expect, it } from 'vitest';
import { loadBackend } from '../support/backends.js';
import { ablatedParameters, createTrainer, evaluate } from '../../../web/model/train/driver.js';
import { HEAD_THRESHOLDS } from '../../../web/model/train/head-scores.js';

const SETUP = {
  task: 'induction',
  model: { layers: 2, heads: 2, kvHeads: 2, dModel: 16, positions: 'learned', mlp: 0, seed: 0 },
  batch: 32,
  learningRate: 1e-2,
  probeEvery: 10,
  snapshotEvery: 50,
  maxSteps: 400,
};

describe('the training driver', () => {
  it('trains to maxSteps, probing every 10 steps, noting each crossing once, with snapshots every 50', async () => {
    const attn = await loadBackend({ simd: true, backend: 'wasm-simd' });
    const trainer = await createTrainer(attn, SETUP);
    const updates = [];
    trainer.listen((state) => updates.push(state.step));
    await trainer.measure();
    await trainer.start();
    const { state } = trainer;
    expect(state.step).toBe(400);
    expect(state.losses).toHaveLength(400);
    expect(state.accuracies.map(([step]) => step)).toEqual([0, ...Array.from({ length: 40 }, (_, i) => 10 * (i + 1))]);
    expect(state.snapshots.map((s) => s.step)).toEqual([0, 50, 100, 150, 200, 250, 300, 350, 400]);
    expect(updates.at(-1)).toBe(400);
    const keys = state.crossings.map((c) => `${c.kind} ${c.layer} ${c.head}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const c of state.crossings) {
      expect(c.score).toBeGreaterThan(HEAD_THRESHOLDS[c.kind]);
      expect(c.step % 10).toBe(0);
    }
    console.log(`driver: ${state.crossings.map((c) => `${c.kind} L${c.layer}H${c.head}@${c.step}`).join(', ')}; accuracy ${state.probe.accuracy.toFixed(3)}`);
    expect(state.crossings.some((c) => c.kind === 'induction' && c.layer === 1)).toBe(true);
    // A snapshot's head example is the one of then: its Q differs from the model's now, and the
    // example of the last snapshot (step 400, the model now) is the model's now.
    const then = await trainer.headExample(1, 0, { snapshot: 1 });
    const now = await trainer.headExample(1, 0);
    expect(then.spec.data.q).not.toEqual(now.spec.data.q);
    expect((await trainer.headExample(1, 0, { snapshot: 8 })).spec).toEqual(now.spec);
    await expect(trainer.headExample(1, 0, { snapshot: 9 })).rejects.toThrow('headExample: snapshot must be an integer in [0, 9), got 9');
    await expect(trainer.headExample(2, 0, { snapshot: 1 })).rejects.toThrow('headExample: layer 2 head 0 is not a head of this 2 x 2 model');
    const first = state.losses.slice(0, 5);
    await trainer.reset();
    expect(trainer.state.step).toBe(0);
    await trainer.step();
    await trainer.step();
    expect(trainer.state.losses).toEqual(first.slice(0, 2)); // the same model and batches again
    await trainer.dispose();
  });

  it("ablation zeroes one head's columns of out.weight, leaves the rest, and changes the probe loss", async () => {
    const attn = await loadBackend({ simd: true, backend: 'wasm-simd' });
    const trainer = await createTrainer(attn, { ...SETUP, maxSteps: 100 });
    await trainer.start();
    const parameters = trainer.model.parameters();
    const ablated = ablatedParameters(parameters, trainer.config, 1, 1);
    const [before, after] = [parameters['layers.1.out.weight'].data, ablated['layers.1.out.weight'].data];
    for (let row = 0; row < 16; row++) {
      for (let c = 0; c < 16; c++) expect(after[row * 16 + c]).toBe(c >= 8 ? 0 : before[row * 16 + c]);
    }
    expect(ablated['layers.0.out.weight']).toBe(parameters['layers.0.out.weight']);
    expect(Array.from(parameters['layers.1.out.weight'].data)).toEqual(Array.from(before)); // the map given is unchanged
    const [whole, without] = [
      await evaluate(attn, trainer.config, parameters, trainer.probeBatch),
      await evaluate(attn, trainer.config, ablated, trainer.probeBatch),
    ];
    expect(without.loss).not.toBe(whole.loss);
    expect(() => ablatedParameters(parameters, trainer.config, 2, 0)).toThrow(new RangeError('ablatedParameters: layer must be an integer in [0, 2), got 2'));
    expect(() => ablatedParameters(parameters, trainer.config, 0, -1)).toThrow(new RangeError('ablatedParameters: head must be an integer in [0, 2), got -1'));
    await trainer.dispose();
  });

  it('refuses an unknown task by name', async () => {
    const attn = await loadBackend({ simd: true, backend: 'wasm-simd' });
    await expect(createTrainer(attn, { ...SETUP, task: 'translate' })).rejects.toThrow(
      new RangeError("createTrainer: task must be one of 'induction', 'copy', 'reverse', 'sort', 'text', got translate"),
    );
  });
});
