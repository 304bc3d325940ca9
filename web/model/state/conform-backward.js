// The parts of the state that the backward, check and speed panels read, made consistent with
// the sizes conform() has settled: the target has the output's shape (seeded where missing), the
// learning rate and speeds stay in range, and typed checks are short strings.
import { LIMITS, LOSSES } from './model.js';
import { clampInt, seededStack } from './resize.js';

const STAGE_ID = /^[a-z][a-z-]{0,19}$/;
const MAX_TYPED = 24; // characters of one typed number: enough for any float, short in the URL

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const within = (x, lo, hi, fallback) => (typeof x === 'number' && Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : fallback);

/** backward: { target (B, Tq, dv), loss, learningRate, stepsPerSecond }. */
export function conformBackward(raw, s, { B, Tq, dv }) {
  const given = isObject(raw) ? raw : {};
  // A (Tq, dv) target (one batch, as older links have it) is read as (1, Tq, dv).
  const target = Array.isArray(given.target) && Array.isArray(given.target[0]) && !Array.isArray(given.target[0][0])
    ? [given.target]
    : given.target;
  return {
    target: seededStack(s, 'target', target, B, Tq, dv),
    loss: LOSSES.includes(given.loss) ? given.loss : 'half-sum',
    learningRate: within(given.learningRate, 1e-4, 10, 0.1),
    stepsPerSecond: clampInt(given.stepsPerSecond, LIMITS.stepsPerSecond, 20),
  };
}

/** checks: { stage: string[][][] }: what a user typed, kept as typed (shapes are fitted when shown). */
export function conformChecks(raw) {
  const checks = {};
  if (!isObject(raw)) return checks;
  const text = (x) => (typeof x === 'string' ? x.slice(0, MAX_TYPED) : typeof x === 'number' && Number.isFinite(x) ? String(x) : '');
  for (const [stage, blocks] of Object.entries(raw)) {
    if (!STAGE_ID.test(stage) || !Array.isArray(blocks)) continue;
    checks[stage] = blocks.slice(0, LIMITS.batch[1]).map((rows) => (Array.isArray(rows) ? rows : [])
      .slice(0, LIMITS.tokens[1]).map((row) => (Array.isArray(row) ? row : []).slice(0, 2 * LIMITS.tokens[1]).map(text)));
  }
  return checks;
}

/** speed: { T, d, heads } of the speed panel. */
export function conformSpeed(raw) {
  const given = isObject(raw) ? raw : {};
  return {
    T: clampInt(given.T, LIMITS.speedT, 256),
    d: clampInt(given.d, LIMITS.speedD, 64),
    heads: clampInt(given.heads, LIMITS.speedHeads, 4),
  };
}
