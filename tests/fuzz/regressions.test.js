// Every failure the fuzz suite has found, as a named case with its exact input (both builds).
// Cases marked `it.fails` are open bugs: the contract says what the call must do, and the case
// fails until the code does it (flip it to `it` with the fix).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../web/src/index.js';
import { BACKENDS } from '../js/support/backends.js';
import { attentionReference, maskedSoftmaxBackwardReference } from '../reference/index.js';
import { build } from './cases.js';
import { runCase } from './run.js';
import { loadedBuild } from './suite.js';

const t = (values, shape) => ({ data: Float32Array.from(values), shape });
const FLOAT32_MAX = 3.4028234663852886e38;

/** What the contract allows for finite inputs whose float32 intermediates overflow: the RangeError saying so (web/src/boundary/overflow.js) naming one of `names`, or the float64 answer (finite here). */
function expectFiniteOrNamedError(call, expected, names) {
  let result;
  try {
    result = call();
  } catch (error) {
    expect(error instanceof RangeError, String(error)).toBe(true);
    expect(error.message).toMatch(/: an intermediate overflowed float32 \(\|value\| > 3\.4e38\) for these /);
    expect(
      names.some((n) => new RegExp(`\\b${n}\\b`).test(error.message)),
      error.message,
    ).toBe(true);
    return;
  }
  const data = Array.from(result.data);
  expect(data.every(Number.isFinite), `a silent NaN or Infinity: [${data}]`).toBe(true);
  data.forEach((x, i) => expect(Math.abs(x - expected[i])).toBeLessThanOrEqual(1e-5 * Math.abs(expected[i]) + 1e-30));
}

// Cases the long runs found in the suite's own expectations, kept as their exact specs (build()).
const SPECS = {
  // seed 777: a rank fault on weights (B 2 -> 1) is rightly reported by validLens, whose (B) no longer fits.
  'maskedSoftmaxBackward with weights one axis short names weights, dWeights or the validLens that no longer fit': {
    op: 'maskedSoftmaxBackward',
    rank: 3,
    B: 2,
    H: 1,
    Tq: 7,
    Tk: 15,
    x: { style: 'unit', seed: 0, form: 'typed' },
    dWeights: { style: 'unit', seed: 0, form: 'typed' },
    negativeInfinity: false,
    mask: { validLens: { perRow: false, seed: 0, form: 'nested' }, causal: undefined, attnMask: null, maskFill: undefined },
    fault: { kind: 'rank', pick: 524286 },
    family: 'softmax',
  },
  // seed 777: dk of -1.9e-37 in float64 is 0 in float32 (a product of two 1e-20 inputs underflows first).
  "attentionBackward with 'general' scoring on subnormal-range products matches float64 down to float32's floor": {
    op: 'attention',
    backward: true,
    scoring: 'general',
    rank: 2,
    B: 1,
    Hkv: 1,
    group: 1,
    Tq: 1,
    Tk: 31,
    dq: 15,
    dk: 7,
    dv: 1,
    h: 0,
    q: { style: 'unit', seed: 488610866, form: 'typed' },
    k: { style: 'integers', seed: 0, form: 'typed' },
    v: { style: 'unit', seed: 0, form: 'typed' },
    dOutput: { style: 'unit', seed: 0, form: 'typed' },
    params: { style: 'specials', seed: 379693350, form: 'typed' },
    mask: { validLens: { perRow: false, seed: 1463255169, form: 'nested' }, causal: undefined, attnMask: null, maskFill: undefined },
    scale: 2.5,
    softcap: null,
    dropout: null,
    dropoutSeed: null,
    returnWeights: false,
    trace: false,
    returnLse: false,
    saved: false,
    fault: null,
    family: 'attention',
    H: 1,
  },
};

describe.each(BACKENDS)('fuzz regressions ($backend)', (which) => {
  const b = loadedBuild(which);

  it.each(Object.entries(SPECS))('%s', (_, spec) => {
    runCase(b.attn, b.module, build(structuredClone(spec)));
  });

  // Found by the softmax property (fault zero-dim / rank on weights): the message said "x".
  it('maskedSoftmaxBackward names weights, not x, when weights has an empty axis or rank 5', () => {
    expect(() => b.attn.maskedSoftmaxBackward(t([], [0, 2]), t([], [0, 2]))).toThrow(
      /maskedSoftmaxBackward: weights must not have an empty axis, got \[0, 2\]/,
    );
    expect(() => b.attn.maskedSoftmaxBackward(t([1], [1, 1, 1, 1, 1]), t([1], [1, 1, 1, 1, 1]))).toThrow(
      /maskedSoftmaxBackward: weights must have rank 1 to 4/,
    );
  });

  // Found by the extreme-values property: the fused forward accumulates sum_j e_j v_j before
  // dividing by sum_j e_j, so two values of 2e38 overflow although their mean fits.
  it('scaledDotProductAttention averaging v = [2e38, 2e38] gives 2e38, not Infinity', () => {
    expectFiniteOrNamedError(() => b.attn.scaledDotProductAttention(t([0, 0], [1, 2]), t([0, 0, 0, 0], [2, 2]), t([2e38, 2e38], [2, 1])).output, [2e38], ['v']);
  });

  // Scores beyond float32 (1e30 * 1e30) become Infinity and the softmax NaN; float64 gives the
  // one-hot answer. Either that answer or a RangeError naming q or k is the contract.
  it('scaledDotProductAttention with q = k = 1e30 (scores beyond float32) is not a silent NaN', () => {
    const [q, k, v] = [t([1e30, 1], [2, 1]), t([1e30, 2], [2, 1]), t([1, 2], [2, 1])];
    const expected = attentionReference(q, k, v, { scoring: 'scaled-dot' }).out;
    expectFiniteOrNamedError(() => b.attn.scaledDotProductAttention(q, k, v).output, expected, ['q', 'k']);
  });

  it("attention with 'general' scoring, q = k = W = 1e20 (scores beyond float32), is not a silent NaN", () => {
    const [q, k, v, w] = [t([1e20], [1, 1]), t([1e20, 1], [2, 1]), t([1, 2], [2, 1]), t([1e20], [1, 1])];
    const expected = attentionReference(q, k, v, { scoring: 'general', params: { w } }).out;
    expectFiniteOrNamedError(() => b.attn.attention(q, k, v, { scoring: 'general', params: { w } }).output, expected, ['q', 'k', 'params.w']);
  });

  // dy - sum(y dy) overflows to -Infinity at a key of weight 0, and 0 * -Infinity is NaN; the
  // exact dx there is 0 (the kernel would need y dy - y sum, one more multiply per element).
  it('maskedSoftmaxBackward with weights [1, 0] and dWeights [3e38, -3e38] gives [0, 0], not NaN', () => {
    const [y, dy] = [t([1, 0], [2]), t([3e38, -3e38], [2])];
    expect(FLOAT32_MAX).toBeGreaterThan(3e38);
    expectFiniteOrNamedError(() => b.attn.maskedSoftmaxBackward(y, dy), maskedSoftmaxBackwardReference(y, dy).dx, ['dWeights']);
  });

  it('scaledDotProductAttention with scale 1 on q = k = [1e20, 1] throws the overflow, not [NaN, 1], and the module keeps working', () => {
    const [q, v] = [t([1e20, 1], [2, 1]), t([1, 2], [2, 1])];
    expect(() => b.attn.scaledDotProductAttention(q, q, v, { scale: 1 })).toThrow(
      new RangeError('scaledDotProductAttention: an intermediate overflowed float32 (|value| > 3.4e38) for these q, k and v; scale the inputs down'),
    );
    expect(Array.from(b.attn.scaledDotProductAttention(t([0, 0], [2, 1]), t([0, 0], [2, 1]), v).output.data)).toEqual([1.5, 1.5]);
  });

  // lse is -Infinity for a row that sees no key and trace.masked where masked: by contract, not overflow.
  it('a fully masked row keeps its lse of -Infinity and masked scores of -Infinity without an overflow error', () => {
    const r = b.attn.scaledDotProductAttention(t([1], [1, 1]), t([1], [1, 1]), t([2], [1, 1]), {
      validLens: [0],
      returnLse: true,
      returnWeights: true,
      trace: true,
    });
    expect([r.output.data[0], r.weights.data[0], r.lse.data[0], r.trace.masked.data[0]]).toEqual([0, 0, -Infinity, -Infinity]);
  });

  it('a selfAttention layer whose scores overflow throws from forward, and backward names dOutput', () => {
    const layer = b.attn.selfAttention({ dIn: 2, seed: 1 });
    try {
      expect(() => layer.forward(t([3e38, 3e38, -3e38, 3e38], [2, 2]))).toThrow(
        /selfAttention\.forward: an intermediate overflowed float32 .* for these x and the layer's parameters;/,
      );
      const x = t([1, 2, 3, 4], [2, 2]);
      expect(layer.forward(x).output.data.every(Number.isFinite)).toBe(true);
      expect(() => layer.backward(t([3e38, 3e38, 3e38, 3e38], [2, 2]))).toThrow(
        /selfAttention\.backward: an intermediate overflowed float32 .* for these dOutput and the layer's parameters;/,
      );
    } finally {
      layer.dispose();
    }
  });

  it("a selfAttention layer's step that would overflow a weight throws and leaves every weight as it was", () => {
    const layer = b.attn.selfAttention({ dIn: 2, seed: 1 });
    try {
      layer.forward(t([10, 20, 30, 40], [2, 2]));
      layer.backward(t([100, 100, 100, 100], [2, 2]));
      const before = layer.parameters();
      expect(() => layer.step(3e38)).toThrow(/selfAttention\.step: an intermediate overflowed float32 .* for these learningRate and the layer's parameters;/);
      expect(layer.parameters()).toEqual(before);
      layer.step(1e-3);
      expect(Object.values(layer.parameters()).every((w) => w.data.every(Number.isFinite))).toBe(true);
    } finally {
      layer.dispose();
    }
  });

  describe('the worker pool', () => {
    let pool;
    beforeAll(async () => {
      pool = await loadAttention({ simd: which.simd, threads: 2, inlineBelow: 0 });
    });
    afterAll(() => pool?.dispose());
    const data = Float32Array.from([1, 2, 3]);
    /** A tensor whose data and shape are getters of a class: structured clone drops them. */
    const held = (shape) =>
      new (class Held {
        get data() {
          return data;
        }
        get shape() {
          return shape;
        }
      })();

    // Found by the pool property (seed 1944817740, browser): the worker received {} and said
    // "x must be a tensor", where the synchronous call works.
    it('maskedSoftmax on the pool takes a tensor whose data and shape are getters, as the synchronous call does', async () => {
      expect((await pool.maskedSoftmax(held([3]))).data).toEqual(b.attn.maskedSoftmax(held([3])).data);
    });

    // inlineBelow 0 splits the call across both workers (parallel-sdpa.js): the assembled result is checked too.
    it('scaledDotProductAttention split across the pool throws the same overflow error as the synchronous call', async () => {
      const [q, v] = [t([1e20, 1, 1, 1], [2, 2, 1]), t([1, 2, 3, 4], [2, 2, 1])];
      const message = 'scaledDotProductAttention: an intermediate overflowed float32 (|value| > 3.4e38) for these q, k and v; scale the inputs down';
      expect(() => b.attn.scaledDotProductAttention(q, q, v, { scale: 1 })).toThrow(new RangeError(message));
      await expect(pool.scaledDotProductAttention(q, q, v, { scale: 1 })).rejects.toThrow(new RangeError(message));
      const fine = t([1, 2, 3, 4], [2, 2, 1]);
      expect((await pool.scaledDotProductAttention(fine, fine, v)).output.data).toEqual(b.attn.scaledDotProductAttention(fine, fine, v).output.data);
    });

    it('scaledDotProductAttentionBackward split across the pool throws the overflow where dk partials of two workers sum past float32', async () => {
      // Each query row alone gives a finite dv (weight 1 x 3e38); the two rows, split between workers, sum to 6e38.
      const [q, k, v, dout] = [t([0, 0], [1, 2, 1]), t([0], [1, 1, 1]), t([1], [1, 1, 1]), t([3e38, 3e38], [1, 2, 1])];
      const message = /scaledDotProductAttentionBackward: an intermediate overflowed float32 .* for these q, k, v and dOutput;/;
      expect(() => b.attn.scaledDotProductAttentionBackward(q, k, v, dout)).toThrow(message);
      await expect(pool.scaledDotProductAttentionBackward(q, k, v, dout)).rejects.toThrow(message);
    });

    it('a pool layer whose scores overflow rejects with the RangeError and keeps working', async () => {
      const layer = await pool.selfAttention({ dIn: 2, seed: 1 });
      await expect(layer.forward(t([3e38, 3e38, -3e38, 3e38], [2, 2]))).rejects.toThrow(/selfAttention\.forward: an intermediate overflowed float32/);
      expect((await layer.forward(t([1, 2, 3, 4], [2, 2]))).output.data.every(Number.isFinite)).toBe(true);
      await layer.dispose();
    });

    // A pool layer lives on its worker, so its calls cannot fall back to the calling thread: its
    // tensor arguments are read into plain tensors before they are posted.
    it("a pool layer's forward and backward take tensors whose data and shape are getters", async () => {
      const layer = await pool.selfAttention({ dIn: 3, seed: 1 });
      const plainLayer = b.attn.selfAttention({ dIn: 3, seed: 1 });
      const x = held([1, 3]);
      const { output } = await layer.forward(x);
      expect(output.shape).toEqual([1, 3]);
      expect(Array.from(output.data)).toEqual(Array.from(plainLayer.forward(x).output.data));
      const grads = await layer.backward(held([1, 3]));
      expect(Array.from(grads.dx.data)).toEqual(Array.from(plainLayer.backward(held([1, 3])).dx.data));
      await layer.dispose();
    });
  });
});
