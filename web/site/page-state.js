// The page-only parts of the explorer's state, beside the example state of web/model/state: what
// check mode holds and the size the speed panel times. Figures never see them.
// {
//   ...the example state (web/model/state/model.js),
//   checks: { [stage]: string[][][] },   check mode: the numbers a user typed for a stage (B, R, C),
//                                  as typed ('' = not filled); compared with the stage's first matrix
//   checked: { [stage]: 'checked' | 'revealed' },   a stage in check mode whose exact values are
//                                  shown: after Check (with the marks), or asked for without checking
//   speed: { T, d, heads },        the size the speed panel times
// }
import { conform } from '../model/state/conform.js';
import { presetRaw } from '../model/presets/index.js';
import { LIMITS } from '../model/state/model.js';
import { clampInt, isObject } from '../model/state/resize.js';

/** The speed panel's limits: T, d and heads of the timed attention. */
export const SPEED_LIMITS = { T: [16, 1024], d: [8, 128], heads: [1, 8] };

const STAGE_ID = /^[a-z][a-z-]{0,19}$/;
const MAX_TYPED = 24; // characters of one typed number: enough for any float, short in the URL

/** checks: { stage: string[][][] }: what a user typed, kept as typed (shapes are fitted when shown). */
export function conformChecks(raw) {
  const checks = {};
  if (!isObject(raw)) return checks;
  const text = (x) => (typeof x === 'string' ? x.slice(0, MAX_TYPED) : typeof x === 'number' && Number.isFinite(x) ? String(x) : '');
  for (const [stage, blocks] of Object.entries(raw)) {
    if (!STAGE_ID.test(stage) || !Array.isArray(blocks)) continue;
    checks[stage] = blocks
      .slice(0, LIMITS.batch[1])
      .map((rows) =>
        (Array.isArray(rows) ? rows : []).slice(0, LIMITS.tokens[1]).map((row) => (Array.isArray(row) ? row : []).slice(0, 2 * LIMITS.tokens[1]).map(text)),
      );
  }
  return checks;
}

/** checked: { stage: 'checked' | 'revealed' } for stages in check mode (checks) only. */
export function conformChecked(raw, checks) {
  const checked = {};
  if (!isObject(raw)) return checked;
  for (const [stage, how] of Object.entries(raw)) {
    if (Object.hasOwn(checks, stage) && (how === 'checked' || how === 'revealed')) checked[stage] = how;
  }
  return checked;
}

/** speed: { T, d, heads } of the speed panel. */
export function conformSpeed(raw) {
  const given = isObject(raw) ? raw : {};
  return {
    T: clampInt(given.T, SPEED_LIMITS.T, 256),
    d: clampInt(given.d, SPEED_LIMITS.d, 64),
    heads: clampInt(given.heads, SPEED_LIMITS.heads, 4),
  };
}

/** A complete, consistent page state from any object: the example state and the page's own parts. */
export function conformPage(raw = {}) {
  const checks = conformChecks(raw?.checks);
  return { ...conform(raw), checks, checked: conformChecked(raw?.checked, checks), speed: conformSpeed(raw?.speed) };
}

/** The page state of preset `id`: its example state with the page parts it brings (seed-002's checks). */
export const presetPage = (id, options) => conformPage(presetRaw(id, options));
