// The float64 reference (index.js) as the browser suites (tests/e2e, tests/embed) read the page: one
// example as nested arrays, rows of numbers. Q = X Wq, K = X Wk, V = X Wv, then index.js's
// attentionReference (scale 1/sqrt(d), a top-left causal mask if asked, a window [left, right] with
// -1 open, ALiBi's bias after the scale) and ropeReference for rotary positions; no softmax, mask or
// rotation is written again here. Also the half-sum squared error against a target and central
// finite differences of any scalar function of a matrix.
import { alibiBias as alibiBiasAt, attentionReference, maskedSoftmaxBackwardReference, maskedSoftmaxReference, ropeReference } from './index.js';

export const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((sum, x, t) => sum + x * b[t][j], 0)));
export const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

/** Rows (T, w) -> { data, shape: [T, w] } (float64), the reference's tensor form. */
const tensor = (m) => ({ data: Float64Array.from(m.flat()), shape: [m.length, m[0].length] });
/** data of rows of `width` numbers -> nested arrays. */
const rows = (data, width) => Array.from({ length: data.length / width }, (_, i) => Array.from(data.subarray(i * width, (i + 1) * width)));

/** ALiBi's bias (Tq, Tk) for one head's slope. */
export function alibiBias(Tq, Tk, slope) {
  return Array.from({ length: Tq }, (_, i) => Array.from({ length: Tk }, (_, j) => alibiBiasAt(slope, i, j, Tq, Tk)));
}

/** The paper's ALiBi slopes for H a power of two: 2^(-8/H), 2^(-16/H), ... */
export const alibiSlopesPow2 = (H) => Array.from({ length: H }, (_, h) => 2 ** ((-8 * (h + 1)) / H));

/** Rotary positions on x (T, d): row t, pair p turns by t base^(-2p/d); pairs (p, p + d/2) or (2p, 2p + 1). */
export const rotate = (x, { base = 10000, interleaved = false } = {}) => rows(ropeReference(tensor(x), { base, interleaved }), x[0].length);

/**
 * Attention from Q, K, V (T, d): { scores (Q K^T), scaled, weights, output }; causal 'none' or
 * 'top-left', window and slope (ALiBi) optional.
 */
export function attention(q, k, v, { causal = 'none', scale = 1 / Math.sqrt(q[0].length), window = null, slope = 0 } = {}) {
  const r = attentionReference(tensor(q), tensor(k), tensor(v), {
    scale,
    causal: causal === 'none' ? undefined : causal,
    window: window ?? undefined,
    alibi: slope ? [slope] : undefined,
  });
  return { scores: matmul(q, transpose(k)), scaled: rows(r.scores, k.length), weights: rows(r.weights, k.length), output: rows(r.out, v[0].length) };
}

/** dS = P (dP - D) per row, D = sum_j P_j dP_j: the softmax's backward from weights P and dP (T, Tk). */
/** softmax of one row of scores (-Infinity: a hidden key, weight 0). */
export const softmaxRow = (z) => Array.from(maskedSoftmaxReference(tensor([z])).y);
export const softmaxBackward = (p, dP) => rows(maskedSoftmaxBackwardReference(tensor(p), tensor(dP)).dx, p[0].length);

/** Self-attention of X with Wq, Wk, Wv: every stage. */
export function selfAttention({ x, wq, wk, wv, rope = null }, options) {
  const turn = (m) => (rope ? rotate(m, rope) : m);
  const q = turn(matmul(x, wq));
  const k = turn(matmul(x, wk));
  const v = matmul(x, wv);
  return { q, k, v, ...attention(q, k, v, options) };
}

export const halfSquaredError = (o, y) => 0.5 * o.flat().reduce((sum, x, n) => sum + (x - y.flat()[n]) ** 2, 0);

/** dL/dM for every entry of matrix m by central differences of f(m) (float64, step h). */
export function numericGradient(f, m, h = 1e-6) {
  return m.map((row, i) =>
    row.map((_, j) => {
      const shifted = (delta) => f(m.map((r, a) => r.map((x, b) => (a === i && b === j ? x + delta : x))));
      return (shifted(h) - shifted(-h)) / (2 * h);
    }),
  );
}
