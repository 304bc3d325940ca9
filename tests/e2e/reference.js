// A float64 self-attention written from docs/semantics.md, independent of the page and of the core,
// for the end-to-end tests: Q = X Wq, K = X Wk, V = X Wv, S = Q K^T, scaled by 1/sqrt(d),
// a top-left causal mask if asked, a stable softmax per row, O = P V; the half-sum squared error
// against a target; central finite differences of any scalar function of a matrix. Issue 12's
// positions as their papers write them: a sliding window [left, right] (FlashAttention's
// convention, -1 open), ALiBi's bias -slope |i + (Tk - Tq) - j| after the scale, and rotary
// positions (row t turns pair p by t base^(-2p/d); pairs (p, p + d/2) or (2p, 2p + 1)).

export const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((sum, x, t) => sum + x * b[t][j], 0)));
export const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

export function softmaxRow(z) {
  const max = Math.max(...z);
  const e = z.map((x) => (x === -Infinity ? 0 : Math.exp(x - max)));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** Whether query i sees key j under a top-left causal mask and a window [left, right] (or null). */
function visible(i, j, offset, causal, window) {
  if (causal === 'top-left' && j > i) return false;
  if (!window) return true;
  const [left, right] = window;
  return (left === -1 || j >= i + offset - left) && (right === -1 || j <= i + offset + right);
}

/** -slope |i + (Tk - Tq) - j| for (Tq, Tk). */
export function alibiBias(Tq, Tk, slope) {
  return Array.from({ length: Tq }, (_, i) => Array.from({ length: Tk }, (_, j) => -slope * Math.abs(i + (Tk - Tq) - j)));
}

/** The paper's ALiBi slopes for H a power of two: 2^(-8/H), 2^(-16/H), ... */
export const alibiSlopesPow2 = (H) => Array.from({ length: H }, (_, h) => 2 ** (-8 * (h + 1) / H));

/** Rotary positions on x (T, d): row t, pair p turns by t base^(-2p/d). */
export function rotate(x, { base = 10000, interleaved = false } = {}) {
  const d = x[0].length;
  const half = d / 2;
  return x.map((row, t) => {
    const out = row.slice();
    for (let p = 0; p < half; p++) {
      const [a, b] = interleaved ? [2 * p, 2 * p + 1] : [p, p + half];
      const angle = t * base ** (-2 * p / d);
      out[a] = row[a] * Math.cos(angle) - row[b] * Math.sin(angle);
      out[b] = row[b] * Math.cos(angle) + row[a] * Math.sin(angle);
    }
    return out;
  });
}

/** Attention from Q, K, V (T, d): { scores, scaled, weights, output }; window, slope (ALiBi) optional. */
export function attention(q, k, v, { causal = 'none', scale = 1 / Math.sqrt(q[0].length), window = null, slope = 0 } = {}) {
  const scores = matmul(q, transpose(k));
  const scaled = scores.map((row) => row.map((s) => s * scale));
  const offset = k.length - q.length;
  const bias = alibiBias(q.length, k.length, slope);
  const weights = scaled.map((row, i) => softmaxRow(row.map((z, j) => (visible(i, j, offset, causal, window) ? z + bias[i][j] : -Infinity))));
  return { scores, scaled, weights, output: matmul(weights, v) };
}

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
  return m.map((row, i) => row.map((_, j) => {
    const shifted = (delta) => f(m.map((r, a) => r.map((x, b) => (a === i && b === j ? x + delta : x))));
    return (shifted(h) - shifted(-h)) / (2 * h);
  }));
}
