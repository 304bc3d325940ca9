// Small matrix products over stacks of matrices, in float64 (stored as float32, as every tensor
// the page shows). The page uses them for the chain rule around the core's gradients (dP, dS,
// dW = X^T dQ) and for checking the core's dQ, dK, dV against the formulas of docs/semantics.md.
// A rank-2 operand is shared by every matrix of the other's stack (broadcast over B).
import { matrixSize, stackCount } from './tensors.js';

/** View of a tensor as (B, R, C) with element access; op 't' reads it transposed. */
function view(t, op) {
  const [R, C] = matrixSize(t);
  const B = t.shape.length > 2 ? stackCount(t) : 1;
  const shared = t.shape.length <= 2;
  const transposed = op === 't';
  return {
    B,
    shared,
    rows: transposed ? C : R,
    cols: transposed ? R : C,
    at: transposed ? (b, i, j) => t.data[((shared ? 0 : b) * R + j) * C + i] : (b, i, j) => t.data[((shared ? 0 : b) * R + i) * C + j],
  };
}

/**
 * op(a) op(b) for each matrix of the stacks: a (B, R, K), b (B, K, C) after the ops
 * ('n' as is, 't' transposed) -> (B, R, C). scale multiplies the result.
 */
export function product(a, b, { opA = 'n', opB = 'n', scale = 1 } = {}) {
  const A = view(a, opA);
  const Bv = view(b, opB);
  if (A.cols !== Bv.rows) throw new RangeError(`product: inner sizes differ (${A.cols} vs ${Bv.rows})`);
  const batches = Math.max(A.shared ? 1 : A.B, Bv.shared ? 1 : Bv.B);
  const out = new Float32Array(batches * A.rows * Bv.cols);
  for (let n = 0; n < batches; n++) {
    for (let i = 0; i < A.rows; i++) {
      for (let j = 0; j < Bv.cols; j++) {
        let sum = 0;
        for (let k = 0; k < A.cols; k++) sum += A.at(n, i, k) * Bv.at(n, k, j);
        out[(n * A.rows + i) * Bv.cols + j] = scale * sum;
      }
    }
  }
  const stacked = !(A.shared && Bv.shared);
  return { data: out, shape: stacked ? [batches, A.rows, Bv.cols] : [A.rows, Bv.cols] };
}

/** Largest |a - b| over two tensors of the same size, and where (flat index). */
export function largestDifference(a, b) {
  let worst = 0;
  let index = -1;
  for (let k = 0; k < a.data.length; k++) {
    const diff = Math.abs(a.data[k] - b.data[k]);
    if (diff > worst || Number.isNaN(diff)) {
      worst = Number.isNaN(diff) ? Infinity : diff;
      index = k;
    }
  }
  return { diff: worst, index };
}

/** Largest |x| of a tensor (for relative differences). */
export const largestMagnitude = (t) => t.data.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
