// Every failure the fuzz suite has found, as a named case with its exact input (both builds).
// Cases marked `it.fails` are open bugs: the contract says what the call must do, and the case
// fails until the code does it (flip it to `it` with the fix).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../web/src/index.js';
import { BACKENDS } from '../js/backends.js';
import { attentionReference, maskedSoftmaxBackwardReference } from '../js/reference.js';
import { build } from './cases.js';
import { runCase } from './run.js';
import { loadedBuild } from './suite.js';

const t = (values, shape) => ({ data: Float32Array.from(values), shape });
const FLOAT32_MAX = 3.4028234663852886e38;

/** What the contract allows for finite inputs whose float32 intermediates overflow: a RangeError or TypeError naming one of `names`, or the float64 answer (finite here). */
function expectFiniteOrNamedError(call, expected, names) {
  let result;
  try {
    result = call();
  } catch (error) {
    expect(error instanceof RangeError || error instanceof TypeError, String(error)).toBe(true);
    expect(names.some((n) => new RegExp(`\\b${n}\\b`).test(error.message)), error.message).toBe(true);
    return;
  }
  const data = Array.from(result.data);
  expect(data.every(Number.isFinite), `a silent NaN or Infinity: [${data}]`).toBe(true);
  data.forEach((x, i) => expect(Math.abs(x - expected[i])).toBeLessThanOrEqual(1e-5 * Math.abs(expected[i]) + 1e-30));
}

// Cases the long runs found in the suite's own expectations, kept as their exact specs (build()).
const SPECS = {
  // seed 777: a rank fault on weights (B 2 -> 1) is rightly reported by validLens, whose (B) no longer fits.
  'maskedSoftmaxBackward with weights one axis short names weights, gradWeights or the validLens that no longer fit': {
    op: 'maskedSoftmaxBackward', rank: 3, B: 2, H: 1, Tq: 7, Tk: 15, x: { style: 'unit', seed: 0, form: 'typed' },
    gradWeights: { style: 'unit', seed: 0, form: 'typed' }, negativeInfinity: false,
    mask: { validLens: { perRow: false, seed: 0, form: 'nested' }, causal: undefined, attnMask: null, maskFill: undefined },
    fault: { kind: 'rank', pick: 524286 }, family: 'softmax',
  },
  // seed 777: dk of -1.9e-37 in float64 is 0 in float32 (a product of two 1e-20 inputs underflows first).
  "attentionBackward with 'general' scoring on subnormal-range products matches float64 down to float32's floor": {
    op: 'attention', backward: true, scoring: 'general', rank: 2, B: 1, Hkv: 1, group: 1, Tq: 1, Tk: 31, dq: 15, dk: 7, dv: 1, h: 0,
    q: { style: 'unit', seed: 488610866, form: 'typed' }, k: { style: 'integers', seed: 0, form: 'typed' },
    v: { style: 'unit', seed: 0, form: 'typed' }, gradOutput: { style: 'unit', seed: 0, form: 'typed' },
    params: { style: 'specials', seed: 379693350, form: 'typed' },
    mask: { validLens: { perRow: false, seed: 1463255169, form: 'nested' }, causal: undefined, attnMask: null, maskFill: undefined },
    scale: 2.5, softcap: null, dropout: null, seed: null, returnWeights: false, trace: false, returnLse: false, saved: false,
    fault: null, family: 'attention', H: 1,
  },
};

describe.each(BACKENDS)('fuzz regressions ($backend)', (which) => {
  const b = loadedBuild(which);

  it.each(Object.entries(SPECS))('%s', (_, spec) => {
    runCase(b.attn, b.module, build(structuredClone(spec)));
  });

  // Found by the softmax property (fault zero-dim / rank on weights): the message said "x".
  it('maskedSoftmaxBackward names weights, not x, when weights has an empty axis or rank 5', () => {
    expect(() => b.attn.maskedSoftmaxBackward(t([], [0, 2]), t([], [0, 2]))).toThrow(/maskedSoftmaxBackward: weights must not have an empty axis, got \[0, 2\]/);
    expect(() => b.attn.maskedSoftmaxBackward(t([1], [1, 1, 1, 1, 1]), t([1], [1, 1, 1, 1, 1]))).toThrow(/maskedSoftmaxBackward: weights must have rank 1 to 4/);
  });

  // Open (found by the extreme-values property): the fused forward accumulates sum_j e_j v_j
  // before dividing by sum_j e_j, so two values of 2e38 overflow although their mean fits.
  it.fails('scaledDotProductAttention averaging v = [2e38, 2e38] gives 2e38, not Infinity', () => {
    expectFiniteOrNamedError(() => b.attn.scaledDotProductAttention(t([0, 0], [1, 2]), t([0, 0, 0, 0], [2, 2]), t([2e38, 2e38], [2, 1])).output, [2e38], ['v']);
  });

  // Open: scores beyond float32 (1e30 * 1e30) become Infinity and the softmax NaN; float64 gives
  // the one-hot answer. Either that answer or a RangeError naming q or k is the contract.
  it.fails('scaledDotProductAttention with q = k = 1e30 (scores beyond float32) is not a silent NaN', () => {
    const [q, k, v] = [t([1e30, 1], [2, 1]), t([1e30, 2], [2, 1]), t([1, 2], [2, 1])];
    const expected = attentionReference(q, k, v, { scoring: 'scaled-dot' }).out;
    expectFiniteOrNamedError(() => b.attn.scaledDotProductAttention(q, k, v).output, expected, ['q', 'k']);
  });

  it.fails("attention with 'general' scoring, q = k = W = 1e20 (scores beyond float32), is not a silent NaN", () => {
    const [q, k, v, w] = [t([1e20], [1, 1]), t([1e20, 1], [2, 1]), t([1, 2], [2, 1]), t([1e20], [1, 1])];
    const expected = attentionReference(q, k, v, { scoring: 'general', params: { w } }).out;
    expectFiniteOrNamedError(() => b.attn.attention(q, k, v, { scoring: 'general', params: { w } }).output, expected, ['q', 'k', 'params.w']);
  });

  // Open: dy - sum(y dy) overflows to -Infinity at a key of weight 0, and 0 * -Infinity is NaN;
  // the exact dx there is 0.
  it.fails('maskedSoftmaxBackward with weights [1, 0] and gradWeights [3e38, -3e38] gives [0, 0], not NaN', () => {
    const [y, dy] = [t([1, 0], [2]), t([3e38, -3e38], [2])];
    expect(FLOAT32_MAX).toBeGreaterThan(3e38);
    expectFiniteOrNamedError(() => b.attn.maskedSoftmaxBackward(y, dy), maskedSoftmaxBackwardReference(y, dy).dx, ['gradWeights']);
  });

  describe('the worker pool', () => {
    let pool;
    beforeAll(async () => {
      pool = await loadAttention({ simd: which.simd, threads: 2, inlineBelow: 0 });
    });
    afterAll(() => pool?.dispose());
    const data = Float32Array.from([1, 2, 3]);
    /** A tensor whose data and shape are getters of a class: structured clone drops them. */
    const held = (shape) => new (class Held {
      get data() { return data; }
      get shape() { return shape; }
    })();

    // Found by the pool property (seed 1944817740, browser): the worker received {} and said
    // "x must be a tensor", where the synchronous call works.
    it('maskedSoftmax on the pool takes a tensor whose data and shape are getters, as the synchronous call does', async () => {
      expect((await pool.maskedSoftmax(held([3]))).data).toEqual(b.attn.maskedSoftmax(held([3])).data);
    });

    // Open: a pool layer lives on its worker, so its calls cannot fall back to the calling thread;
    // the arguments would have to be copied into plain tensors before they are posted.
    it.fails("a pool layer's forward takes a tensor whose data and shape are getters", async () => {
      const layer = await pool.selfAttention({ dIn: 3, seed: 1 });
      expect((await layer.forward(held([1, 3]))).output.shape).toEqual([1, 3]);
    });
  });
});
