// Decoding with a KV cache in the explorer's model (web/model/compute/decode.js): the state's
// tokens fed one at a time through an API layer's cache give, step by step, the rows of the full
// forward, checked here against a float64 reference written from the papers (tests/reference/matrices.js).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { compute } from '../../../web/model/compute/index.js';
import { createDecoder, decodeBlocker } from '../../../web/model/compute/decode.js';
import { presetState } from '../../../web/model/presets/index.js';
import { conform } from '../../../web/model/state/conform.js';
import { matmul, selfAttention } from '../../reference/matrices.js';

let attn;
beforeAll(async () => {
  attn = await loadAttention();
});

const worst = (a, b) => Math.max(...a.map((x, n) => Math.abs(x - b[n])));

/** The float64 full forward of a 'self' state (scaled-dot, causal, RoPE): every head's weights and the output through W^O. */
function reference(state) {
  const rope = state.rope === 'off' ? null : { base: state.ropeBase, interleaved: state.rope === 'interleaved' };
  const heads = state.wq.map((wq, h) =>
    selfAttention({ x: state.x, wq, wk: state.wk[h], wv: state.wv[h], rope }, { causal: 'top-left', scale: 1 / Math.sqrt(wq[0].length) }),
  );
  const concat = state.x.map((_, t) => heads.flatMap((r) => r.output[t]));
  return { heads, output: state.wo ? matmul(concat, state.wo) : concat };
}

// float32 projections, rotations (cos, sin within ~1e-7), exps and sums of values below ~5
// against float64: 1e-6 is a few float32 roundings, and far below a row taken from a wrong step.
const TOLERANCE = 1e-6;

describe('decoding with a KV cache', () => {
  for (const [id, patch] of [
    ['decode', {}],
    ['decode', { head: 1 }],
    ['rotary', {}],
    ['alibi', { kvHeads: 1, head: 1, causal: 'bottom-right', window: [2, 0] }],
  ]) {
    it(`each step of ${id} ${JSON.stringify(patch)} gives the full forward's row t: its weights, its output`, () => {
      const state = conform({ ...presetState(id), ...patch });
      const result = compute(attn, state);
      const decoder = createDecoder(attn, state, result);
      const exact = state.alibi === 'off' ? reference(state) : null;
      for (let t = 0; t < decoder.T; t++) {
        const step = decoder.step();
        expect([step.t, step.cacheLength, step.k.shape[1], step.weights.data.length]).toEqual([t, t + 1, t + 1, t + 1]);
        expect(step.diffs.output, `step ${t}: cached output vs the page's full forward`).toBeLessThan(TOLERANCE);
        expect(step.diffs.weights).toBeLessThan(TOLERANCE);
        expect(step.diffs.rows, `step ${t}: the cache's output vs its rows worked out beside it`).toBeLessThan(TOLERANCE);
        if (exact) {
          expect(worst(Array.from(step.weights.data), exact.heads[state.head].weights[t].slice(0, t + 1))).toBeLessThan(TOLERANCE);
          const row = decoder.kind === 'multiHeadAttention' ? exact.output[t] : exact.heads[state.head].output[t];
          expect(worst(Array.from(step.output.data), row)).toBeLessThan(TOLERANCE);
        }
      }
      expect(() => decoder.step()).toThrow(RangeError);
      decoder.reset();
      expect(decoder.step().cacheLength).toBe(1);
      decoder.dispose();
    });
  }

  it('the decode preset runs on a multiHeadAttention layer: 2 heads, 1 kv head, RoPE, W^O', () => {
    const state = presetState('decode');
    expect([state.heads, state.kvHeads, state.rope, state.causal]).toEqual([2, 1, 'halves', 'bottom-right']);
    expect(createDecoder(attn, state, compute(attn, state)).kind).toBe('multiHeadAttention');
  });

  it('a state no layer cache can run says why instead of decoding', () => {
    expect(decodeBlocker(presetState('d2l'))).toMatch(/Q, K and V directly/);
    expect(decodeBlocker(conform({ ...presetState('decode'), scoring: 'additive' }))).toMatch(/dot products/);
    expect(decodeBlocker(conform({ ...presetState('decode'), validLens: { per: 'batch', lens: [3] } }))).toMatch(/valid lengths/);
    expect(decodeBlocker(presetState('decode'))).toBeNull();
  });
});
