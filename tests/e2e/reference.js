// A float64 self-attention written from docs/semantics.md, independent of the page and of the core,
// for the end-to-end tests: Q = X Wq, K = X Wk, V = X Wv, S = Q K^T, scaled by 1/sqrt(d),
// a top-left causal mask if asked, a stable softmax per row, O = P V; the half-sum squared error
// against a target; central finite differences of any scalar function of a matrix.

export const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((sum, x, t) => sum + x * b[t][j], 0)));
export const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

export function softmaxRow(z) {
  const max = Math.max(...z);
  const e = z.map((x) => (x === -Infinity ? 0 : Math.exp(x - max)));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** Attention from Q, K, V (T, d): { scores, scaled, weights, output }. */
export function attention(q, k, v, { causal = 'none', scale = 1 / Math.sqrt(q[0].length) } = {}) {
  const scores = matmul(q, transpose(k));
  const scaled = scores.map((row) => row.map((s) => s * scale));
  const weights = scaled.map((row, i) => softmaxRow(row.map((z, j) => (causal === 'top-left' && j > i ? -Infinity : z))));
  return { scores, scaled, weights, output: matmul(weights, v) };
}

/** Self-attention of X with Wq, Wk, Wv: every stage. */
export function selfAttention({ x, wq, wk, wv }, options) {
  const q = matmul(x, wq);
  const k = matmul(x, wk);
  const v = matmul(x, wv);
  return { q, k, v, ...attention(q, k, v, options) };
}

export const halfSquaredError = (o, y) => 0.5 * o.flat().reduce((sum, x, n) => sum + (x - y.flat()[n]) ** 2, 0);

/** dL/dM for every entry of matrix m by central differences of f(m) (float64, step h). */
export function numericGradient(f, m, h = 1e-6) {
  return m.map((row, i) => row.map((_, j) => {
    const shifted = (delta) => f(m.map((r, a) => r.map((x, b) => (a === i && b === j ? x + delta : x))));
    return (shifted(h) - shifted(-h)) / (2 * h);
  }));
}
