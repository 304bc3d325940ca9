// The explorer's model (web/model) past the shown head: the heads' outputs through W^O, the
// backward pass of every compared scoring, and the gradients of every head and W^O that Train
// follows, each against a float64 reference written from the papers (tests/reference/matrices.js) and
// its central finite differences.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { compute } from '../../../web/model/compute/index.js';
import { backwardPass } from '../../../web/model/compute/backward.js';
import { alibiOf } from '../../../web/model/compute/positions.js';
import { presetState } from '../../../web/model/presets/index.js';
import { conform } from '../../../web/model/state/conform.js';
import { setCell } from '../../../web/model/state/edit.js';
import { setSize } from '../../../web/model/state/sizes.js';
import { sgdStep } from '../../../web/site/features/train/sgd.js';
import { alibiBias, halfSquaredError, matmul, numericGradient, selfAttention, transpose } from '../../reference/matrices.js';

let attn;
beforeAll(async () => {
  attn = await loadAttention();
});

/** Nested (R, C) of a tensor's last two axes (batch 0). */
const nested = (t) => {
  const [R, C] = t.shape.slice(-2);
  return Array.from({ length: R }, (_, i) => Array.from(t.data.slice(i * C, (i + 1) * C)));
};

/** Largest |a - b| over nested arrays. */
const worst = (a, b) => Math.max(...a.flat().map((x, n) => Math.abs(x - b.flat()[n])));

/**
 * The float64 layer of a 'self' state with dot-product scores: each head's attention (RoPE, the
 * causal mask: square, so both alignments agree), side by side, through W^O.
 * -> { heads: [selfAttention()], concat, output }
 */
function reference(state, weights = state, scoring = state.scoring) {
  const rope = state.rope === 'off' ? null : { base: state.ropeBase, interleaved: state.rope === 'interleaved' };
  const heads = weights.wq.map((wq, h) => {
    const d = wq[0].length;
    const scale = scoring === 'scaled-dot' ? 1 / Math.sqrt(d) : 1;
    return selfAttention({ x: state.x, wq, wk: weights.wk[h], wv: weights.wv[h], rope }, { causal: state.causal === 'none' ? 'none' : 'top-left', scale });
  });
  const concat = state.x.map((_, t) => heads.flatMap((r) => r.output[t]));
  return { heads, concat, output: weights.wo ? matmul(concat, weights.wo) : concat };
}

// float32 projections, exps and sums of values below ~10, against float64: 1e-6 of the largest
// entry is far above the rounding and far below any mistake in the order of the heads.
const close = (actual, expected) => expect(worst(actual, expected)).toBeLessThanOrEqual(1e-6 * Math.max(1, ...expected.flat().map(Math.abs)));

describe('the output through W^O', () => {
  it('a state with several heads gets a seeded W^O (H d_v, d_in); one head has none unless given', () => {
    const sentence = presetState('sentence');
    expect([sentence.wo.length, sentence.wo[0].length]).toEqual([4, 4]);
    expect(presetState('seed-004').wo).toBeNull();
    const given = conform({
      ...presetState('seed-004'),
      wo: [
        [1, 0],
        [0, 1],
      ],
    });
    expect(given.wo).toEqual([
      [1, 0],
      [0, 1],
    ]);
    // A link with W^O of the wrong size is cut and grown, not refused.
    expect(conform({ ...sentence, wo: [[1]] }).wo.map((r) => r.length)).toEqual([4, 4, 4, 4]);
    // A second head brings W^O; the target follows the layer's width.
    const two = setSize(presetState('seed-004'), 'heads', 2);
    expect([two.wo.length, two.wo[0].length]).toEqual([4, 2]);
    expect(two.backward.target[0][0].length).toBe(2);
    expect(setCell(sentence, { stage: 'wo', row: 1, col: 2 }, 7).wo[1][2]).toBe(7);
  });

  it('the sentence preset’s layer output equals the float64 heads through W^O, computed by multiHeadAttention', () => {
    const state = presetState('sentence');
    const result = compute(attn, state);
    const exact = reference(state);
    expect(result.projected[0].layer).toBe('multiHeadAttention');
    close(nested(result.projected[0].concat), exact.concat);
    close(nested(result.projected[0].output), exact.output);
  });

  it('the decode preset (RoPE, 2 heads sharing 1 kv head) and a compared scoring each get their own output', () => {
    const state = conform({ ...presetState('decode'), compare: ['dot'] });
    const result = compute(attn, state);
    expect(result.projected.map((r) => r.scoring)).toEqual(['scaled-dot', 'dot']);
    close(nested(result.projected[0].output), reference(state).output);
    // dot: no multiHeadAttention layer scores at scale 1, so the product is in JS.
    expect(result.projected[1].layer).toBeNull();
    close(nested(result.projected[1].output), reference(state, state, 'dot').output);
  });
});

describe('custom ALiBi slopes (issue 12: alibi as a list of H slopes)', () => {
  it('compute gives each head its own slope’s bias and weights, and the layer through W^O uses them, as float64', () => {
    // Slopes far from the paper's 1/16 and 1/256 for two heads, and from each other, so a
    // mix-up moves the weights by more than 1e-2.
    const slopes = [0.5, 0.25];
    const state = conform({ ...presetState('sentence'), alibi: slopes });
    expect(alibiOf(state)).toEqual(slopes);
    const result = compute(attn, state);
    const T = state.x.length;
    const heads = slopes.map((slope, h) => {
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

describe('the backward pass of every scoring and every head', () => {
  /** L of the float64 layer with some weights replaced (grouped K, V: every head of the group). */
  function lossWith(state, scoring, replace) {
    const weights = { wq: state.wq, wk: state.wk, wv: state.wv, wo: state.wo, ...replace };
    return halfSquaredError(reference(state, weights, scoring).output, state.backward.target[0]);
  }

  // Finite differences of float64 with step 1e-6 (error ~1e-9) against float32 gradients of
  // entries up to ~20: 2e-5 of the largest is a few float32 roundings of the sums.
  const gradientClose = (actual, expected) => expect(worst(actual, expected)).toBeLessThanOrEqual(2e-5 * Math.max(1, ...expected.flat().map(Math.abs)));

  it('every head’s dW^Q, the group’s dW^K, dW^V and dW^O are the finite differences of the layer’s loss (decode preset)', () => {
    const state = presetState('decode');
    const { training } = compute(attn, state, { backward: backwardPass }).backward;
    for (let h = 0; h < state.heads; h++) {
      const dwq = numericGradient((w) => lossWith(state, state.scoring, { wq: state.wq.map((m, g) => (g === h ? w : m)) }), state.wq[h]);
      gradientClose(nested(training.wq[h]), dwq);
    }
    // One kv head: the shared Wk moves in every head at once.
    const dwk = numericGradient((w) => lossWith(state, state.scoring, { wk: state.wk.map(() => w) }), state.wk[0]);
    for (let h = 0; h < state.heads; h++) gradientClose(nested(training.wk[h]), dwk);
    const dwv = numericGradient((w) => lossWith(state, state.scoring, { wv: state.wv.map(() => w) }), state.wv[0]);
    gradientClose(nested(training.wv[1]), dwv);
    gradientClose(
      nested(training.wo),
      numericGradient((w) => lossWith(state, state.scoring, { wo: w }), state.wo),
    );
  });

  it('a compared scoring’s dQ, dK, dV of the shown head are its own loss’s gradients, not the first scoring’s', () => {
    const state = conform({ ...presetState('decode'), head: 1, compare: ['dot'] });
    const { backward, heads } = compute(attn, state, { backward: backwardPass });
    expect(backward.runs.map((r) => r.scoring)).toEqual(['scaled-dot', 'dot']);
    const run = backward.runs[1];
    // The head's output under 'dot' from its (rotated) q, k, v, with the other head held fixed.
    const q = nested(heads[1].q);
    const k = nested(heads[1].k);
    const v = nested(heads[1].v);
    const exact = reference(state, state, 'dot');
    const lossOf = (qq, kk, vv) => {
      const mine = attentionOutput(qq, kk, vv);
      const concat = exact.concat.map((row, t) => [...exact.heads[0].output[t], ...mine[t]]);
      return halfSquaredError(matmul(concat, state.wo), state.backward.target[0]);
    };
    gradientClose(
      nested(run.dq),
      numericGradient((m) => lossOf(m, k, v), q),
    );
    gradientClose(
      nested(run.dk),
      numericGradient((m) => lossOf(q, m, v), k),
    );
    gradientClose(
      nested(run.dv),
      numericGradient((m) => lossOf(q, k, m), v),
    );
    expect(worst(nested(run.dq), nested(backward.runs[0].dq))).toBeGreaterThan(1e-3);
  });

  it('the layer’s own backward agrees with every weight gradient when multiHeadAttention computes the state', () => {
    const { agreements } = compute(attn, presetState('decode'), { backward: backwardPass }).backward;
    const layer = agreements.filter((a) => a.against === 'multiHeadAttention.backward()');
    expect(layer.map((a) => a.what)).toEqual(['dW^Q', 'dW^K', 'dW^V', 'dW^O']);
    for (const a of layer) expect(a.diff, a.what).toBeLessThanOrEqual(1e-5 * a.size);
  });

  it('SGD steps every head and W^O down the loss, and grouped heads keep sharing W^K and W^V', () => {
    for (const id of ['decode', 'sentence', 'alibi']) {
      let state = presetState(id);
      const first = compute(attn, state, { backward: backwardPass }).backward.loss;
      const before = structuredClone(state);
      for (let k = 0; k < 10; k++) state = conform(sgdStep(state, compute(attn, state, { backward: backwardPass }).backward));
      const last = compute(attn, state, { backward: backwardPass }).backward.loss;
      expect(last, id).toBeLessThan(0.7 * first);
      for (let h = 0; h < state.heads; h++) expect(state.wq[h], `${id} head ${h + 1}`).not.toEqual(before.wq[h]);
      expect(state.wo).not.toEqual(before.wo);
      if (id === 'decode') expect(state.wk[1]).toEqual(state.wk[0]);
    }
  });
});

/** softmax(q k^T, causal) v in float64 (the dot scoring: scale 1). */
function attentionOutput(q, k, v) {
  const s = matmul(q, transpose(k)).map((row, i) => row.map((x, j) => (j > i ? -Infinity : x)));
  return s.map((row) => {
    const max = Math.max(...row);
    const e = row.map((x) => Math.exp(x - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return v[0].map((_, c) => e.reduce((acc, p, j) => acc + (p / sum) * v[j][c], 0));
  });
}
