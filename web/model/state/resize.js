// Growing and shrinking nested arrays while keeping the values already there. New cells get a
// seeded value that depends only on (seed, name, position), so growing, shrinking and growing
// again gives back the same numbers.
import { normal, streamSeed } from './random.js';

/** The made-up value of a new cell of matrix `name` at `position` (indices). */
export function seededCell(seed, name, ...position) {
  return normal(streamSeed(seed, `${name}:${position.join(',')}`), { sd: 1, decimals: 1 })();
}

const finiteOr = (x, fallback) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);

/** A (length) vector from `old`, new entries from fill(i). */
export function resizeVector(old, length, fill) {
  const src = Array.isArray(old) ? old : [];
  return Array.from({ length }, (_, i) => finiteOr(src[i], undefined) ?? fill(i));
}

/** A (rows, cols) matrix from `old`, new cells from fill(i, j). */
export function resizeMatrix(old, rows, cols, fill) {
  const src = Array.isArray(old) ? old : [];
  return Array.from({ length: rows }, (_, i) => resizeVector(src[i], cols, (j) => fill(i, j)));
}

/** A (n, rows, cols) stack of matrices from `old`, new cells from fill(k, i, j). */
export function resizeStack(old, n, rows, cols, fill) {
  const src = Array.isArray(old) ? old : [];
  return Array.from({ length: n }, (_, k) => resizeMatrix(src[k], rows, cols, (i, j) => fill(k, i, j)));
}

/** A stack of seeded matrices named `name` (k, i, j positions). */
export function seededStack(state, name, old, n, rows, cols) {
  return resizeStack(old, n, rows, cols, (k, i, j) => seededCell(state.seed, name, k, i, j));
}

/** One seeded matrix named `name`. */
export function seededMatrix(state, name, old, rows, cols) {
  return resizeMatrix(old, rows, cols, (i, j) => seededCell(state.seed, name, i, j));
}

/** A plain object (not null, not an array): a part of a state conform() reads fields from. */
export const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Clamps to an integer in [lo, hi]; non-numbers give `fallback`. */
export function clampInt(x, [lo, hi], fallback) {
  const n = Math.round(Number(x));
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
}
