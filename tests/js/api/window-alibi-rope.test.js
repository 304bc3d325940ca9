// Issue 12's options through the public API on both builds: the sliding window against the same band
// written as a boolean attnMask, `alibi: true` against the ALiBi paper's slopes written out by hand,
// and rope / ropeBackward against the float64 reference (tests/reference). PyTorch goldens for all three
// are in golden.test.js; finite differences in gradients.test.js; bad input in bad-input.test.js.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { ropeReference } from '../../reference/index.js';

/** The window [left, right] of (Tq, Tk) as a boolean attnMask (FlashAttention's bounds, written directly). */
function bandMask(Tq, Tk, [left, right]) {
  const data = new Uint8Array(Tq * Tk);
  for (let i = 0; i < Tq; i++) {
    for (let j = 0; j < Tk; j++) {
      const offset = j - (i + Tk - Tq); // key j relative to row i's diagonal
      data[i * Tk + j] = (left < 0 || offset >= -left) && (right < 0 || offset <= right) ? 1 : 0;
    }
  }
  return { data, shape: [Tq, Tk] };
}

// The slopes of Press et al.'s get_slopes(H), by hand: 2^(-8/H) powers for H a power of two; for
// H = 6 the four of H = 4, then the 1st and 3rd of H = 8; for H = 3 the two of H = 2 and the 1st of 4.
const PAPER_SLOPES = {
  1: [2 ** -8],
  3: [2 ** -4, 2 ** -8, 2 ** -2],
  6: [2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8, 2 ** -1, 2 ** -3],
  8: [2 ** -1, 2 ** -2, 2 ** -3, 2 ** -4, 2 ** -5, 2 ** -6, 2 ** -7, 2 ** -8],
};

// rope: float32 cos and sin of float64 angles (rounded once, ~6e-8) times inputs in [-1, 1), two
// products and a sum: a few ulp of 1. A wrong pairing or frequency moves values by > 1e-2.
const ROPE_TOLERANCE = { rtol: 1e-6, atol: 1e-6 };

describe.each(BACKENDS)('sliding window, ALiBi and rotary positions ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  it.each([
    [[2, 0], 6, 6],
    [[1, 2], 70, 130],
    [[0, -1], 130, 70],
    [[40, 3], 129, 129],
  ])('scaledDotProductAttention with window %j (Tq %i, Tk %i) equals the same band as a bool attnMask', (window, Tq, Tk) => {
    const rand = seededRandom(Tq * 1000 + Tk);
    const q = randomTensor(rand, [1, 2, Tq, 8]);
    const k = randomTensor(rand, [1, 2, Tk, 8]);
    const v = randomTensor(rand, [1, 2, Tk, 4]);
    const g = randomTensor(rand, [1, 2, Tq, 4]);
    const attnMask = bandMask(Tq, Tk, window);
    // The window skips key blocks that the bool mask only masks element by element: sums may be
    // grouped differently, a few ulp.
    const tol = { rtol: 1e-5, atol: 1e-6 };
    const windowed = attn.scaledDotProductAttention(q, k, v, { window, returnLse: true });
    const masked = attn.scaledDotProductAttention(q, k, v, { attnMask, returnLse: true });
    expectClose(windowed.output, masked.output, { ...tol, label: 'output' });
    expectClose(windowed.lse, masked.lse, { ...tol, label: 'lse' });
    const gw = attn.scaledDotProductAttentionBackward(q, k, v, g, { window });
    const gm = attn.scaledDotProductAttentionBackward(q, k, v, g, { attnMask });
    for (const name of ['dq', 'dk', 'dv']) expectClose(gw[name], gm[name], { ...tol, label: name });
  });

  it('maskedSoftmax with a window hides keys outside it', () => {
    const x = randomTensor(seededRandom(5), [2, 5, 8], 3);
    const window = [1, 2];
    const y = attn.maskedSoftmax(x, { window });
    const band = bandMask(5, 8, window).data;
    for (let b = 0; b < 2; b++) {
      for (let i = 0; i < 5; i++) {
        let sum = 0;
        for (let j = 0; j < 8; j++) {
          const w = y.data[(b * 5 + i) * 8 + j];
          if (!band[i * 8 + j]) expect(w, `b ${b} row ${i} key ${j}`).toBe(0);
          sum += w;
        }
        expect(sum).toBeCloseTo(1, 6);
      }
    }
  });

  it.each(Object.keys(PAPER_SLOPES).map(Number))('alibi: true with H = %i uses the ALiBi paper slopes', (H) => {
    const rand = seededRandom(H);
    const q = randomTensor(rand, [1, H, 5, 4]);
    const k = randomTensor(rand, [1, 1, 7, 4]);
    const v = randomTensor(rand, [1, 1, 7, 3]);
    const paper = attn.scaledDotProductAttention(q, k, v, { alibi: true }).output;
    const given = attn.scaledDotProductAttention(q, k, v, { alibi: PAPER_SLOPES[H] }).output;
    expect(Array.from(paper.data)).toEqual(Array.from(given.data));
    const none = attn.scaledDotProductAttention(q, k, v).output;
    expect(Array.from(paper.data)).not.toEqual(Array.from(none.data)); // the bias did something
  });

  it('maskedSoftmax with alibi adds -slope |i + Tk - Tq - j| to the scores', () => {
    const x = randomTensor(seededRandom(9), [1, 2, 3, 4], 2);
    const slopes = [0.5, 2];
    const biased = { data: Float32Array.from(x.data), shape: x.shape };
    for (let h = 0; h < 2; h++) for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) biased.data[(h * 3 + i) * 4 + j] -= slopes[h] * Math.abs(i + 1 - j);
    expectClose(attn.maskedSoftmax(x, { alibi: slopes }), attn.maskedSoftmax(biased), { rtol: 1e-6, atol: 1e-7, label: 'weights' });
  });

  it.each([
    ['rotate_half (Llama), rank 4', [2, 3, 5, 8], {}],
    ['interleaved (GPT-J), rank 2', [7, 6], { interleaved: true }],
    ['base 500000 and offset 4096, rank 3', [2, 4, 16], { base: 500000, offset: 4096 }],
    ['interleaved, offset 100000, d 2', [3, 2], { interleaved: true, offset: 100000 }],
  ])('rope %s matches the float64 reference, and ropeBackward turns back', (label, shape, options) => {
    const x = randomTensor(seededRandom(shape.length), shape);
    const y = attn.rope(x, options);
    expect(y.shape).toEqual(shape);
    expectClose(y, { data: ropeReference(x, options), shape }, { ...ROPE_TOLERANCE, label: 'rope' });
    const back = attn.ropeBackward(x, options);
    expectClose(back, { data: ropeReference(x, options, -1), shape }, { ...ROPE_TOLERANCE, label: 'ropeBackward' });
    expectClose(attn.ropeBackward(y, options), x, { ...ROPE_TOLERANCE, label: 'ropeBackward(rope(x))' });
  });

  it('rope leaves its input unchanged and position 0 untouched', () => {
    const x = randomTensor(seededRandom(3), [1, 4]);
    const copy = Float32Array.from(x.data);
    const y = attn.rope(x);
    expect(Array.from(x.data)).toEqual(Array.from(copy));
    expect(Array.from(y.data)).toEqual(Array.from(copy)); // T = 1 at offset 0: angle 0
  });
});
