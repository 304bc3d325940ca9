// The backward part of the state, made consistent with the sizes conform() has settled: the
// target has the output's shape (seeded where missing), the learning rate and speed stay in range.
import { LIMITS, LOSSES } from './model.js';
import { clampInt, isObject, seededStack } from './resize.js';

const within = (x, lo, hi, fallback) => (typeof x === 'number' && Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : fallback);

/** backward: { target (B, Tq, d_out), loss, learningRate, stepsPerSecond }. */
export function conformBackward(raw, s, { B, Tq, dOut }) {
  const given = isObject(raw) ? raw : {};
  // A (Tq, dv) target (one batch, as older links have it) is read as (1, Tq, dv).
  const target = Array.isArray(given.target) && Array.isArray(given.target[0]) && !Array.isArray(given.target[0][0]) ? [given.target] : given.target;
  return {
    target: seededStack(s, 'target', target, B, Tq, dOut),
    loss: LOSSES.includes(given.loss) ? given.loss : 'half-sum',
    learningRate: within(given.learningRate, 1e-4, 10, 0.1),
    stepsPerSecond: clampInt(given.stepsPerSecond, LIMITS.stepsPerSecond, 20),
  };
}
