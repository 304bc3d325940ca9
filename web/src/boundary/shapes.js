// The shape conventions of docs/semantics.md for attention inputs:
//   rank 4: q (B, H, Tq, dq), k (B, Hkv, Tk, dk), v (B, Hkv, Tk, dv)
//   rank 3: q (B, Tq, dq),    k (B, Tk, dk),      v (B, Tk, dv)        H = Hkv = 1
//   rank 2: q (Tq, dq),       k (Tk, dk),         v (Tk, dv)           B = H = Hkv = 1
// Outputs come back in the rank of q.
import { axesOfRank } from './masks.js';
import { formatShape } from './tensor.js';
import { expectAxes } from './validate.js';

const LETTERS = {
  q: { 2: ['Tq', 'dq'], 3: ['B', 'Tq', 'dq'], 4: ['B', 'H', 'Tq', 'dq'] },
  k: { 2: ['Tk', 'dk'], 3: ['B', 'Tk', 'dk'], 4: ['B', 'Hkv', 'Tk', 'dk'] },
  v: { 2: ['Tk', 'dv'], 3: ['B', 'Tk', 'dv'], 4: ['B', 'Hkv', 'Tk', 'dv'] },
};

// q's axes are all free: [[letter]] per axis, made once.
const Q_AXES = Object.fromEntries(Object.entries(LETTERS.q).map(([rank, letters]) => [rank, letters.map((letter) => [letter])]));

/**
 * q, k, v tensors -> { B, H, Hkv, Tq, Tk, dq, dk, dv, rank }.
 * sameWidth: dot-product scorings need dk == dq (they share the letter d).
 */
export function attentionDims(fn, q, k, v, { sameWidth }) {
  const rank = q.shape.length;
  if (rank < 2 || rank > 4) {
    throw new RangeError(`${fn}: q must have rank 2 (Tq, d), 3 (B, Tq, d) or 4 (B, H, Tq, d), got rank ${rank} ${formatShape(q.shape)}`);
  }
  for (const [name, t] of [
    ['k', k],
    ['v', v],
  ]) {
    if (t.shape.length !== rank) {
      throw new RangeError(
        `${fn}: ${name} must have the rank of q, ${rank} (${LETTERS[name][rank].join(', ')}), got rank ${t.shape.length} ${formatShape(t.shape)}`,
      );
    }
  }
  const known = expectAxes(fn, 'q', q, Q_AXES[rank]);
  const B = known.B ?? 1;
  const H = known.H ?? 1;
  const kAxes = { B, Hkv: undefined, Tk: undefined, dk: sameWidth ? known.dq : undefined };
  const kd = expectAxes(
    fn,
    'k',
    k,
    LETTERS.k[rank].map((letter) => [sameWidth && letter === 'dk' ? 'd' : letter, kAxes[letter]]),
  );
  const Hkv = kd.Hkv ?? 1;
  const Tk = kd.Tk;
  if (H % Hkv !== 0) {
    throw new RangeError(`${fn}: q has H=${H} heads, which is not a multiple of the Hkv=${Hkv} heads of k (grouped-query attention needs H % Hkv == 0)`);
  }
  const vAxes = { B, Hkv, Tk, dv: undefined };
  const vd = expectAxes(
    fn,
    'v',
    v,
    LETTERS.v[rank].map((letter) => [letter, vAxes[letter]]),
  );
  return { B, H, Hkv, Tq: known.Tq, Tk, dq: known.dq, dk: kd.dk ?? kd.d, dv: vd.dv, rank };
}

/** (B, H, Tq, last) in the rank of q: the shape of out (last = dv) and weights (last = Tk). */
export function inQueryRank(dims, last) {
  const full = [dims.B, dims.H, dims.Tq, last];
  return axesOfRank(dims.rank).map((a) => full[a]);
}

/** (B, H, Tq) in the rank of q minus one: the shape of lse. */
export function rowsInQueryRank(dims) {
  return inQueryRank(dims, 0).slice(0, -1);
}

/** The scores (B, H, Tq, Tk) as masks.js sees them: sizes plus the axes q's rank shows. */
export function scoresOf(dims) {
  return { B: dims.B, H: dims.H, Tq: dims.Tq, Tk: dims.Tk, axes: axesOfRank(dims.rank) };
}
