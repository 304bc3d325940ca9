// dQ and dK from dS through each scoring function a(q, k) of docs/semantics.md, in float64 JS: the
// page's independent check of the core's attentionBackward (they are never shown in its place).
// s is the scale, dS (B, Tq, Tk) the gradient of the scaled scores (0 where masked).
//   dot, scaled-dot  dQ = s dS K,              dK = s dS^T Q
//   general          dQ = s dS K W^T,          dK = s dS^T Q W
//   concat           dQ_i = s (sum_j dS_ij) w_q,   dK_j = s (sum_i dS_ij) w_k   (w = [w_q; w_k])
//   additive         t_ij = tanh(q_i Wq + k_j Wk),  u_ij = w_v * (1 - t_ij^2)  (a vector of h):
//                    dQ_i = s sum_j dS_ij Wq u_ij,  dK_j = s sum_i dS_ij Wk u_ij
import { product } from './linear.js';
import { matrixSize, rowOf, stackCount } from './tensors.js';

const zerosLike = (t) => ({ data: new Float32Array(t.data.length), shape: t.shape.slice() });

/** dQ, dK of concat and additive: sums over (i, j) of dS_ij times a q-side and a k-side vector. */
function pairwise(q, k, dS, s, terms) {
  const dq = zerosLike(q);
  const dk = zerosLike(k);
  const [Tq, d] = matrixSize(q);
  const [Tk] = matrixSize(k);
  for (let b = 0; b < stackCount(q); b++) {
    for (let i = 0; i < Tq; i++) {
      for (let j = 0; j < Tk; j++) {
        const g = s * dS.data[(b * Tq + i) * Tk + j];
        if (g === 0) continue;
        const [forQ, forK] = terms(b, i, j);
        for (let c = 0; c < d; c++) {
          dq.data[(b * Tq + i) * d + c] += g * forQ[c];
          dk.data[(b * Tk + j) * d + c] += g * forK[c];
        }
      }
    }
  }
  return { dq, dk };
}

const matVec = (m, v) => m.map((row) => row.reduce((sum, x, c) => sum + x * v[c], 0));
const vecMat = (v, m) => m[0].map((_, c) => v.reduce((sum, x, r) => sum + x * m[r][c], 0));

const CHAIN = {
  dot: (q, k, dS, s) => ({ dq: product(dS, k, { scale: s }), dk: product(dS, q, { opA: 't', scale: s }) }),
  general: (q, k, dS, s, p, tensors) => ({
    dq: product(product(dS, k, { scale: s }), tensors.w, { opB: 't' }),
    dk: product(product(dS, q, { opA: 't', scale: s }), tensors.w),
  }),
  concat: (q, k, dS, s, p) => {
    const d = matrixSize(q)[1];
    const wq = p.w.slice(0, d);
    const wk = p.w.slice(d);
    return pairwise(q, k, dS, s, () => [wq, wk]);
  },
  additive: (q, k, dS, s, p) => {
    const qw = (b, i) => vecMat(rowOf(q, b, i), p.wq);
    const kw = (b, j) => vecMat(rowOf(k, b, j), p.wk);
    return pairwise(q, k, dS, s, (b, i, j) => {
      const a = qw(b, i);
      const u = kw(b, j).map((x, h) => p.wv[h] * (1 - Math.tanh(a[h] + x) ** 2));
      return [matVec(p.wq, u), matVec(p.wk, u)];
    });
  },
};
CHAIN['scaled-dot'] = CHAIN.dot;

/**
 * -> { dq (B, Tq, d), dk (B, Tk, d) } by the chain rule through `scoring`; params: the scoring's
 * parameters as the state's plain arrays, and as tensors.
 */
export function scoreGradients(scoring, q, k, dS, scale, params, tensors) {
  return CHAIN[scoring](q, k, dS, scale, params, tensors);
}
