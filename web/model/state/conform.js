// conform(state): makes a state consistent and complete, whatever it came from (a preset, an
// edit, a link typed by hand): known values only, rectangular arrays of finite numbers whose
// sizes agree, parameters for every scoring computed, masks within range. Pure: returns a new
// object. Everything downstream trusts its output.
import { ALIBI_MODES, CAUSAL_MODES, LIMITS, isAlibiSlope, MASK_FILLS, ROPE_MODES, SCORINGS, VIEWS, groupLeader, scoringsOf } from './model.js';
import { conformBackward } from './conform-backward.js';
import { clampInt, resizeVector, seededCell, seededMatrix, seededStack } from './resize.js';

const oneOf = (x, allowed, fallback) => (allowed.includes(x) ? x : fallback);
const positive = (x, fallback) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : fallback);
// The core multiplies the scores by scale / temperature in float32, temperature in [0.05, 20]: a
// scale must stay finite and > 0 there at every temperature (1e38 / 0.05 is Infinity in float32).
const [MIN_TEMPERATURE, MAX_TEMPERATURE] = [0.05, 20];
const scaleOf = (x) => (typeof x === 'number' && x > 0 && Number.isFinite(Math.fround(x / MIN_TEMPERATURE)) && Math.fround(x / MAX_TEMPERATURE) > 0 ? x : null);
const lengthOf = (a, limits, fallback) => clampInt(Array.isArray(a) ? a.length : NaN, limits, fallback);
const firstLength = (a, limits, fallback) => lengthOf(Array.isArray(a) ? a[0] : undefined, limits, fallback);

/** Labels for n rows: the given ones, then defaults like "t4". */
function labels(given, n, prefix) {
  return resizeVector([], n, (i) => {
    const label = Array.isArray(given) ? given[i] : undefined;
    return typeof label === 'string' && label.trim() !== '' ? label.slice(0, 24) : `${prefix}${i + 1}`;
  });
}

function conformSelf(raw, s) {
  const T = lengthOf(raw.x, LIMITS.tokens, 3);
  const dIn = firstLength(raw.x, LIMITS.width, 2);
  const H = clampInt(raw.heads ?? raw.wq?.length, LIMITS.heads, 1);
  const dQ = lengthOf(raw.wq?.[0]?.[0], LIMITS.width, dIn);
  const dV = lengthOf(raw.wv?.[0]?.[0], LIMITS.width, dIn);
  s.x = seededMatrix(s, 'x', raw.x, T, dIn);
  s.wq = seededStack(s, 'wq', raw.wq, H, dIn, dQ);
  s.wk = seededStack(s, 'wk', raw.wk, H, dIn, dQ);
  s.wv = seededStack(s, 'wv', raw.wv, H, dIn, dV);
  s.heads = H;
  // Grouped heads: the largest divisor of H up to the one asked for; each group shares its
  // first head's Wk and Wv.
  let kv = clampInt(raw.kvHeads, [1, H], H);
  while (H % kv !== 0) kv -= 1;
  s.kvHeads = kv;
  for (let h = 0; h < H; h++) {
    const leader = groupLeader(h, H, kv);
    s.wk[h] = structuredClone(s.wk[leader]);
    s.wv[h] = structuredClone(s.wv[leader]);
  }
  // W^O: given, or seeded for several heads (a single head keeps its own output unless asked).
  const wantsWo = raw.wo === undefined ? H > 1 : raw.wo !== null;
  s.wo = wantsWo ? seededMatrix(s, 'wo', raw.wo, H * dV, dIn) : null;
  s.tokens = labels(raw.tokens, T, 't');
  s.keyTokens = null;
  return { B: 1, Tq: T, Tk: T, d: dQ, dv: dV, dOut: s.wo ? dIn : H * dV };
}

function conformQkv(raw, s) {
  const B = lengthOf(raw.q, LIMITS.batch, 1);
  const Tq = firstLength(raw.q, LIMITS.tokens, 1);
  const Tk = firstLength(raw.k, LIMITS.tokens, 3);
  const d = firstLength(raw.q?.[0], LIMITS.width, 2);
  const dv = firstLength(raw.v?.[0], LIMITS.width, 2);
  s.q = seededStack(s, 'q', raw.q, B, Tq, d);
  s.k = seededStack(s, 'k', raw.k, B, Tk, d);
  s.v = seededStack(s, 'v', raw.v, B, Tk, dv);
  s.heads = 1;
  s.kvHeads = 1;
  s.wo = null;
  s.tokens = labels(raw.tokens, Tq, 'q');
  s.keyTokens = labels(raw.keyTokens, Tk, 'k');
  return { B, Tq, Tk, d, dv, dOut: dv };
}

/** The parameters of each scoring the state computes, seeded where missing or of the wrong size. */
function conformParams(raw, s, d) {
  const given = raw.params && typeof raw.params === 'object' ? raw.params : {};
  const params = {};
  for (const scoring of scoringsOf(s)) {
    const p = given[scoring] ?? {};
    if (scoring === 'general') params.general = { w: seededMatrix(s, 'general.w', p.w, d, d) };
    if (scoring === 'concat') params.concat = { w: resizeVector(p.w, 2 * d, (i) => seededCell(s.seed, 'concat.w', i)) };
    if (scoring === 'additive') {
      params.additive = {
        wq: seededMatrix(s, 'additive.wq', p.wq, d, s.hidden),
        wk: seededMatrix(s, 'additive.wk', p.wk, d, s.hidden),
        wv: resizeVector(p.wv, s.hidden, (i) => seededCell(s.seed, 'additive.wv', i)),
      };
    }
  }
  return params;
}

function conformValidLens(raw, { B, Tq, Tk }) {
  const given = raw && typeof raw === 'object' ? raw : null;
  if (!given || !Array.isArray(given.lens)) return null;
  const len = (x) => clampInt(x, [0, Tk], Tk);
  if (given.per === 'row') {
    return { per: 'row', lens: Array.from({ length: B }, (_, b) => Array.from({ length: Tq }, (_, i) => len(given.lens[b]?.[i]))) };
  }
  return { per: 'batch', lens: Array.from({ length: B }, (_, b) => len(given.lens[b])) };
}

function conformCells(raw, { B, Tq, Tk }) {
  const seen = new Set();
  const cells = [];
  for (const cell of Array.isArray(raw) ? raw : []) {
    if (!Array.isArray(cell) || cell.length !== 3 || !cell.every(Number.isInteger)) continue;
    const [b, i, j] = cell;
    const key = cell.join(',');
    if (b < 0 || b >= B || i < 0 || i >= Tq || j < 0 || j >= Tk || seen.has(key)) continue;
    seen.add(key);
    cells.push([b, i, j]);
  }
  return cells;
}

/**
 * Given ALiBi slopes: a copy when there is one valid slope per head of the state, else 'off'.
 * Nothing is resized: a list made for another number of heads has no right value for a new head.
 */
function customSlopes(given, H) {
  const slopes = Array.from(given); // holes become undefined, which isAlibiSlope refuses
  return slopes.length === H && slopes.every(isAlibiSlope) ? slopes : 'off';
}

/** window, alibi, rope, ropeBase: RoPE only on 'self' states of even d (the core needs pairs). */
function conformPositions(raw, s, { d }) {
  const side = (x) => clampInt(x, LIMITS.window, -1);
  s.window = Array.isArray(raw.window) ? [side(raw.window[0]), side(raw.window[1])] : [-1, -1];
  s.alibi = Array.isArray(raw.alibi) ? customSlopes(raw.alibi, s.heads) : oneOf(raw.alibi, ALIBI_MODES, 'off');
  s.rope = s.source === 'self' && d % 2 === 0 ? oneOf(raw.rope, ROPE_MODES, 'off') : 'off';
  const base = positive(raw.ropeBase, 10000);
  s.ropeBase = Math.min(LIMITS.ropeBase[1], Math.max(LIMITS.ropeBase[0], base));
}

/** A complete, consistent state from any object (unknown keys dropped). */
export function conform(raw = {}) {
  const s = {
    version: 1,
    preset: typeof raw.preset === 'string' ? raw.preset.slice(0, 40) : 'custom',
    source: oneOf(raw.source, ['self', 'qkv'], 'self'),
    seed: clampInt(raw.seed, [0, 2 ** 31 - 1], 1),
    scoring: oneOf(raw.scoring, SCORINGS, 'scaled-dot'),
    hidden: clampInt(raw.hidden, LIMITS.hidden, 4),
    scale: scaleOf(raw.scale),
    temperature: Math.min(MAX_TEMPERATURE, Math.max(MIN_TEMPERATURE, positive(raw.temperature, 1))),
    causal: oneOf(raw.causal, CAUSAL_MODES, 'none'),
    maskFill: oneOf(raw.maskFill, MASK_FILLS, 'zero'),
    view: oneOf(raw.view, VIEWS, 'matrix'),
  };
  s.compare = Array.isArray(raw.compare) ? [...new Set(raw.compare.filter((x) => SCORINGS.includes(x) && x !== s.scoring))] : [];
  const dims = s.source === 'qkv' ? conformQkv(raw, s) : conformSelf(raw, s);
  s.head = clampInt(raw.head, [0, s.heads - 1], 0);
  s.params = conformParams(raw, s, dims.d);
  s.validLens = conformValidLens(raw.validLens, dims);
  s.maskedCells = conformCells(raw.maskedCells, dims);
  conformPositions(raw, s, dims);
  s.backward = conformBackward(raw.backward, s, dims);
  return s;
}
