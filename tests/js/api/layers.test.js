// Layers: selfAttention and multiHeadAttention objects (seeded init, shapes, SGD step, parameters()).
// Their numbers are checked against PyTorch in golden.test.js and by finite differences in
// gradients.test.js; this file checks the object behaviour.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendNamed, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom, tensor } from '../support/numeric.js';
import { SEED_004 } from '../../support/seed-004.js';

function meanSquaredError(output, target) {
  let s = 0;
  for (let i = 0; i < target.data.length; i++) s += (output.data[i] - target.data[i]) ** 2;
  return s / target.data.length;
}

/** dL/dOutput of the mean squared error. */
function mseGradient(output, target) {
  const n = target.data.length;
  return { data: output.data.map((y, i) => (2 * (y - target.data[i])) / n), shape: [...output.shape] };
}

const shapeOf = (t) => [...t.shape];

/** Trains with SGD for `steps` steps on (x, target); returns the losses before each step and after the last. */
function train(layer, x, target, steps, learningRate, forwardOptions = {}) {
  const losses = [];
  for (let s = 0; s < steps; s++) {
    const { output } = layer.forward(x, { ...forwardOptions, trace: false });
    losses.push(meanSquaredError(output, target));
    layer.backward(mseGradient(output, target));
    layer.step(learningRate);
  }
  losses.push(meanSquaredError(layer.forward(x, { ...forwardOptions, trace: false }).output, target));
  return losses;
}

describe.each(BACKENDS)('attention layers ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  describe('selfAttention', () => {
    it('the same seed gives the same weights, another seed other weights, with the documented shapes', () => {
      const a = attn.selfAttention({ dIn: 3, dQ: 2, dOut: 4, seed: 42 }).parameters();
      const b = attn.selfAttention({ dIn: 3, dQ: 2, dOut: 4, seed: 42 }).parameters();
      const c = attn.selfAttention({ dIn: 3, dQ: 2, dOut: 4, seed: 43 }).parameters();
      expect(shapeOf(a.wq)).toEqual([3, 2]);
      expect(shapeOf(a.wk)).toEqual([3, 2]);
      expect(shapeOf(a.wv)).toEqual([3, 4]);
      for (const name of ['wq', 'wk', 'wv']) {
        expect(Array.from(b[name].data)).toEqual(Array.from(a[name].data));
        expect(Array.from(c[name].data)).not.toEqual(Array.from(a[name].data));
        expect(a[name].data.every(Number.isFinite)).toBe(true);
        expect(new Set(a[name].data).size).toBeGreaterThan(1); // not a constant fill
      }
    });

    it('forward and backward shapes for x (T, d_in) and (B, T, d_in), trace included', () => {
      const layer = attn.selfAttention({ dIn: 3, dQ: 2, dOut: 4, seed: 1 });
      for (const xShape of [
        [5, 3],
        [2, 5, 3],
      ]) {
        const lead = xShape.slice(0, -1);
        const T = 5;
        const x = randomTensor(seededRandom(2), xShape);
        const { output, trace } = layer.forward(x);
        expect(shapeOf(output)).toEqual([...lead, 4]);
        expect(shapeOf(trace.q)).toEqual([...lead, 2]);
        expect(shapeOf(trace.k)).toEqual([...lead, 2]);
        expect(shapeOf(trace.v)).toEqual([...lead, 4]);
        for (const name of ['scores', 'masked', 'weights']) expect(shapeOf(trace[name])).toEqual([...lead.slice(0, -1), T, T]);
        expect(shapeOf(trace.output)).toEqual([...lead, 4]);
        const grads = layer.backward(randomTensor(seededRandom(3), output.shape));
        expect(shapeOf(grads.dx)).toEqual(xShape);
        expect(shapeOf(grads.dwq)).toEqual([3, 2]);
        expect(shapeOf(grads.dwk)).toEqual([3, 2]);
        expect(shapeOf(grads.dwv)).toEqual([3, 4]);
      }
      expect(layer.forward(randomTensor(seededRandom(4), [5, 3]), { trace: false }).trace).toBeUndefined();
    });

    it('step(lr) moves every weight by exactly -lr times its gradient', () => {
      const layer = attn.selfAttention({ dIn: 3, dQ: 2, dOut: 2, seed: 7 });
      const before = layer.parameters();
      const x = randomTensor(seededRandom(5), [4, 3]);
      const { output } = layer.forward(x, { trace: false });
      const grads = layer.backward(randomTensor(seededRandom(6), output.shape));
      layer.step(0.25);
      const after = layer.parameters();
      for (const name of ['wq', 'wk', 'wv']) {
        const g = grads[`d${name}`];
        const expected = before[name].data.map((w, i) => Math.fround(w - 0.25 * g.data[i]));
        // float32: lr * g and the subtraction may each round once (half an ulp of |w| and of |lr g| <= 1).
        expectClose(after[name], { data: expected, shape: before[name].shape }, { rtol: 2.5e-7, atol: 1e-7, label: name });
      }
    });

    it("20 SGD steps lower seed 004's loss (its X and weights, a fixed target)", () => {
      const layer = attn.selfAttention({ wq: tensor(SEED_004.wq), wk: tensor(SEED_004.wk), wv: tensor(SEED_004.wv), causal: true });
      const x = tensor(SEED_004.x);
      const target = tensor([
        [1, 0],
        [0, 1],
        [1, 1],
      ]);
      const losses = train(layer, x, target, 20, 0.02);
      expect(losses[20]).toBeLessThan(0.5 * losses[0]);
      const rises = losses.slice(1).filter((l, i) => l > losses[i]).length;
      expect(rises).toBe(0); // small steps of gradient descent on a smooth loss never go up
    });

    it('parameters() returns copies: changing them does not change the layer', () => {
      const layer = attn.selfAttention({ dIn: 2, dQ: 2, dOut: 2, seed: 9 });
      const x = randomTensor(seededRandom(7), [3, 2]);
      const before = layer.forward(x, { trace: false }).output;
      const params = layer.parameters();
      params.wq.data.fill(100);
      params.wv.data[0] = -7;
      expect(Array.from(layer.parameters().wq.data)).not.toContain(100);
      expect(Array.from(layer.forward(x, { trace: false }).output.data)).toEqual(Array.from(before.data));
    });

    it('setParameters replaces the weights it is given and keeps the others', () => {
      const layer = attn.selfAttention({ dIn: 2, dQ: 2, dOut: 2, seed: 9 });
      const old = layer.parameters();
      layer.setParameters({
        wq: tensor([
          [1, 2],
          [3, 4],
        ]),
      });
      const now = layer.parameters();
      expect(Array.from(now.wq.data)).toEqual([1, 2, 3, 4]);
      expect(Array.from(now.wk.data)).toEqual(Array.from(old.wk.data));
      expect(Array.from(now.wv.data)).toEqual(Array.from(old.wv.data));
    });
  });

  describe('multiHeadAttention', () => {
    const options = { dModel: 8, heads: 4, kvHeads: 2, seed: 3 };

    it('the same seed gives the same weights (wq, wk, wv, wo) with shapes (dModel, dModel) and (dModel, kvHeads * dModel / heads)', () => {
      const a = attn.multiHeadAttention(options).parameters();
      const b = attn.multiHeadAttention(options).parameters();
      const c = attn.multiHeadAttention({ ...options, seed: 4 }).parameters();
      expect(shapeOf(a.wq)).toEqual([8, 8]);
      expect(shapeOf(a.wk)).toEqual([8, 4]);
      expect(shapeOf(a.wv)).toEqual([8, 4]);
      expect(shapeOf(a.wo)).toEqual([8, 8]);
      for (const name of ['wq', 'wk', 'wv', 'wo']) {
        expect(Array.from(b[name].data)).toEqual(Array.from(a[name].data));
        expect(Array.from(c[name].data)).not.toEqual(Array.from(a[name].data));
      }
    });

    it('forward and backward shapes, with per-head traces (B, H, T, .)', () => {
      const layer = attn.multiHeadAttention(options);
      const x = randomTensor(seededRandom(11), [2, 5, 8]);
      const { output, trace } = layer.forward(x, { validLens: [5, 3] });
      expect(shapeOf(output)).toEqual([2, 5, 8]);
      expect(shapeOf(trace.q)).toEqual([2, 4, 5, 2]);
      expect(shapeOf(trace.weights)).toEqual([2, 4, 5, 5]);
      const grads = layer.backward(randomTensor(seededRandom(12), [2, 5, 8]));
      expect(shapeOf(grads.dx)).toEqual([2, 5, 8]);
      expect(shapeOf(grads.dwq)).toEqual([8, 8]);
      expect(shapeOf(grads.dwk)).toEqual([8, 4]);
      expect(shapeOf(grads.dwv)).toEqual([8, 4]);
      expect(shapeOf(grads.dwo)).toEqual([8, 8]);
    });

    it('20 SGD steps lower a regression loss', () => {
      const layer = attn.multiHeadAttention({ ...options, causal: true });
      const x = randomTensor(seededRandom(13), [2, 4, 8]);
      const target = randomTensor(seededRandom(14), [2, 4, 8], 0.5);
      const losses = train(layer, x, target, 20, 0.05);
      expect(losses[20]).toBeLessThan(0.9 * losses[0]);
    });

    it('parameters() returns copies', () => {
      const layer = attn.multiHeadAttention(options);
      const p = layer.parameters();
      const wo = Array.from(p.wo.data);
      p.wo.data.fill(0);
      expect(Array.from(layer.parameters().wo.data)).toEqual(wo);
    });
  });
});

describe('seeded initialisation is the same in both builds', () => {
  it('selfAttention and multiHeadAttention weights from seed 5 are bit-identical in SIMD and scalar', async () => {
    const [simd, scalar] = await Promise.all(['wasm-simd', 'wasm-scalar'].map((name) => loadBackend(backendNamed(name))));
    const pairs = [
      [simd.selfAttention({ dIn: 4, dQ: 3, dOut: 2, seed: 5 }), scalar.selfAttention({ dIn: 4, dQ: 3, dOut: 2, seed: 5 })],
      [simd.multiHeadAttention({ dModel: 4, heads: 2, seed: 5 }), scalar.multiHeadAttention({ dModel: 4, heads: 2, seed: 5 })],
    ];
    for (const [a, b] of pairs) {
      const pa = a.parameters();
      const pb = b.parameters();
      for (const name of Object.keys(pa)) expect(Array.from(pb[name].data)).toEqual(Array.from(pa[name].data));
    }
  });
});
