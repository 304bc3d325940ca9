// The explorer state's own ALiBi slopes (issue 12: "alibi: true or a list of H slopes"): conform
// keeps one valid slope per head or turns ALiBi off, compute() gives head h the bias and the
// weights of slope h, and the layer through W^O (multiHeadAttention) uses the same list, each
// against the float64 reference (tests/reference).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../web/src/index.js';
import { compute } from '../../web/model/compute/index.js';
import { alibiOf } from '../../web/model/compute/positions.js';
import { presetState } from '../../web/model/presets/index.js';
import { conform } from '../../web/model/state/conform.js';
import { setSize } from '../../web/model/state/sizes.js';
import { alibiBias, matmul, selfAttention } from '../reference/matrices.js';

let attn;
beforeAll(async () => {
  attn = await loadAttention();
});

/** Nested (R, C) of a tensor's last two axes (batch 0). */
const nested = (t) => {
  const [R, C] = t.shape.slice(-2);
  return Array.from({ length: R }, (_, i) => Array.from(t.data.slice(i * C, (i + 1) * C)));
};
const worst = (a, b) => Math.max(...a.flat().map((x, n) => Math.abs(x - b.flat()[n])));
// float32 projections, exps and sums of values below ~10, against float64: 1e-6 of the largest
// entry is far above the rounding and far below a slope given to the wrong head (0.5 vs 0.25
// moves the weights by more than 1e-2 here).
const close = (actual, expected) => expect(worst(actual, expected)).toBeLessThanOrEqual(1e-6 * Math.max(1, ...expected.flat().map(Math.abs)));

// Two heads (the sentence preset), slopes far from the paper's 1/16 and 1/256 so a mix-up shows.
const SLOPES = [0.5, 0.25];

describe('custom ALiBi slopes in the explorer state', () => {
  it('conform keeps one finite positive slope per head, and turns ALiBi off for any other list', () => {
    const two = presetState('sentence');
    expect(conform({ ...two, alibi: SLOPES }).alibi).toEqual(SLOPES);
    expect(conform({ ...two, alibi: [1e-3, 3] }).alibi).toEqual([1e-3, 3]);
    const refused = [
      [0.5], // one slope for two heads
      [0.5, 0.25, 0.125],
      [0.5, 0],
      [0.5, -0.25],
      [0.5, NaN],
      [0.5, Infinity],
      [0.5, '0.25'],
      [0.5, null],
      [0.5, 1e39], // finite in float64, Infinity in float32
      [0.5, 2e37], // finite in float32, but slope (Tq + Tk) is not for 16 + 16 tokens
      [0.5, 1e-50], // 0 in float32: no bias at all
      [0.5, , ], // eslint-disable-line no-sparse-arrays -- a hole, not a slope
      [],
    ];
    for (const alibi of refused) expect(conform({ ...two, alibi }).alibi, JSON.stringify(alibi)).toBe('off');
    // Given Q, K, V have one head.
    expect(conform({ ...presetState('d2l'), alibi: [0.5] }).alibi).toEqual([0.5]);
    expect(conform({ ...presetState('d2l'), alibi: SLOPES }).alibi).toBe('off');
  });

  it('a change of heads resizes no list: the wrong length turns ALiBi off, the paper’s slopes stay', () => {
    const custom = conform({ ...presetState('sentence'), alibi: SLOPES });
    expect(setSize(custom, 'heads', 3).alibi).toBe('off');
    expect(setSize(custom, 'heads', 1).alibi).toBe('off');
    expect(setSize(conform({ ...custom, alibi: 'paper' }), 'heads', 3).alibi).toBe('paper');
    // The state survives its own JSON (the URL holds it so).
    expect(conform(JSON.parse(JSON.stringify(custom)))).toEqual(custom);
  });

  it('compute gives each head its own slope’s bias and weights, and the layer through W^O uses them, as float64', () => {
    const state = conform({ ...presetState('sentence'), alibi: SLOPES });
    expect(alibiOf(state)).toEqual(SLOPES);
    const result = compute(attn, state);
    const T = state.x.length;
    const heads = SLOPES.map((slope, h) => {
      const head = result.heads[h];
      expect(head.slope).toBe(slope);
      // A slope times a small integer: exact in float32.
      expect(nested(head.bias), `head ${h}`).toEqual(alibiBias(T, T, slope).map((row) => row.map((b) => b + 0)));
      const exact = selfAttention({ x: state.x, wq: state.wq[h], wk: state.wk[h], wv: state.wv[h] }, { causal: 'top-left', slope });
      close(nested(head.runs[0].weights), exact.weights);
      close(nested(head.runs[0].output), exact.output);
      return exact;
    });
    const concat = state.x.map((_, t) => heads.flatMap((r) => r.output[t]));
    expect(result.projected[0].layer).toBe('multiHeadAttention');
    close(nested(result.projected[0].output), matmul(concat, state.wo));
  });
});
