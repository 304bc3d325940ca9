// pipelineState(spec): the explorer's state (web/model/state/model.js) that a figure spec asks for.
// The figure functions and the <attn-figure> element describe a figure with a small spec; the
// state is the explorer's own, so compute() and the stage definitions are reused as they are.
//
// spec: PipelineStateSpec, every field optional and documented once, in web/figures/index.d.ts.
// Bad values throw (TypeError for a wrong kind, RangeError for a wrong size) with the field's name,
// so an author sees the mistake instead of a silently different figure. pipelineState needs its
// preset loaded (presets/catalog.js); loadPipelineState loads it, and only it, first.
import { figureError } from '../../i18n/figure-text.js';
import { PRESET_IDS, loadPreset, presetState } from '../../model/presets/catalog.js';
import { conform } from '../../model/state/conform.js';
import { givenState } from '../../model/state/given.js';
import { CAUSAL_MODES, D2L_FILL, LIMITS, SCORINGS, VIEWS, isAlibiSlope, sizesOf } from '../../model/state/model.js';
import { setSize } from '../../model/state/sizes.js';

const list = (values) => values.map((v) => `'${v}'`).join(', ');

function oneOf(name, value, allowed) {
  if (!allowed.includes(value)) throw figureError(TypeError, 'figure.error.one-of', { name, allowed: list(allowed), got: JSON.stringify(value) });
  return value;
}

function causalMode(value) {
  if (value === true) return 'top-left';
  if (value === false) return 'none';
  return oneOf('causal', value, CAUSAL_MODES);
}

/**
 * maskFill as the API takes it, a number, of the two the explorer draws: null or -Infinity (a row
 * with nothing visible gets zero weights) or d2l's -1e6 -> the state's 'zero' or 'd2l'.
 */
function maskFillMode(value) {
  if (value === null || value === -Infinity) return 'zero';
  if (typeof value !== 'number') {
    const was = { zero: 'null', d2l: '-1e6' }[value];
    throw new TypeError(
      `maskFill must be a number, as the API's: -1e6 (d2l's fill) or null (none), got ${JSON.stringify(value)}${was ? ` (0.1's '${value}' is ${was})` : ''}`,
    );
  }
  if (value !== D2L_FILL) throw new RangeError(`maskFill: the figures draw d2l's fill -1e6 or none (null or -Infinity), got ${value}`);
  return 'd2l';
}

function isIntegerIn(x, [lo, hi]) {
  return Number.isInteger(x) && x >= lo && x <= hi;
}

/** validLens (B) or (B, Tq) checked against the state's sizes -> the state's { per, lens }. */
function validLensOf(value, { B, Tq, Tk }) {
  if (value === null) return null;
  if (!Array.isArray(value)) throw figureError(TypeError, 'figure.error.valid-lens-array', { got: JSON.stringify(value) });
  if (value.length !== B) throw figureError(RangeError, 'figure.error.valid-lens-batches', { B, got: value.length });
  const perRow = Array.isArray(value[0]);
  const rows = perRow ? value : [value];
  for (const row of rows) {
    if (perRow && (!Array.isArray(row) || row.length !== Tq))
      throw figureError(RangeError, 'figure.error.valid-lens-rows', { B, Tq, got: JSON.stringify(value) });
    for (const len of row) {
      if (!isIntegerIn(len, [0, Tk])) throw figureError(RangeError, 'figure.error.valid-lens-entry', { Tk, got: JSON.stringify(len) });
    }
  }
  return { per: perRow ? 'row' : 'batch', lens: value };
}

/** The preset's or the data's raw state, before the spec's overrides. */
function baseState({ preset, data }) {
  if (preset !== undefined && !PRESET_IDS.includes(preset)) {
    throw figureError(TypeError, 'figure.error.one-of', { name: 'preset', allowed: list(PRESET_IDS), got: JSON.stringify(preset) });
  }
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) {
    throw new TypeError(`data must be an object (a partial explorer state such as { x, wq, wk, wv } or { q, k, v }), got ${JSON.stringify(data)}`);
  }
  if (!data) return presetState(preset);
  // Data alone is its own example; with a preset it edits that preset. Its values are drawn as
  // given or refused with the key's name (given.js), never repaired into other numbers.
  return givenState(preset ? presetState(preset) : { preset: 'custom' }, data);
}

/** window, alibi and rope of a spec -> the state's window, alibi, rope and ropeBase. */
function positionOverrides({ window, alibi, rope }) {
  const overrides = {};
  if (window !== undefined) {
    const ok = window === null || (Array.isArray(window) && window.length === 2 && window.every((x) => isIntegerIn(x, LIMITS.window)));
    if (!ok) throw figureError(RangeError, 'figure.error.window-range', { range: LIMITS.window.join(', '), got: JSON.stringify(window) });
    overrides.window = window ?? [-1, -1];
  }
  // A list of slopes waits for the heads (slopesFor): its length is checked against the final H.
  if (alibi !== undefined && !Array.isArray(alibi)) {
    if (typeof alibi !== 'boolean') throw new TypeError(`alibi must be true (the paper's slopes), false or a list of H slopes, got ${JSON.stringify(alibi)}`);
    overrides.alibi = alibi ? 'paper' : 'off';
  }
  if (rope !== undefined) {
    const given = rope === true ? {} : rope;
    if (given === false) return { ...overrides, rope: 'off' };
    if (given === null || typeof given !== 'object' || Array.isArray(given))
      throw new TypeError(`rope must be true, false or { base, interleaved }, got ${JSON.stringify(rope)}`);
    const { base = 10000, interleaved = false } = given;
    if (typeof base !== 'number' || !(base >= LIMITS.ropeBase[0] && base <= LIMITS.ropeBase[1]))
      throw figureError(RangeError, 'figure.error.rope-base', { range: LIMITS.ropeBase.join(', '), got: JSON.stringify(base) });
    if (typeof interleaved !== 'boolean') throw new TypeError(`rope.interleaved must be a boolean, got ${JSON.stringify(interleaved)}`);
    Object.assign(overrides, { rope: interleaved ? 'interleaved' : 'halves', ropeBase: base });
  }
  return overrides;
}

/** alibi: a list of slopes checked against the state's H -> a copy (conform keeps it as it is). */
function slopesFor(alibi, H) {
  const slopes = Array.from(alibi); // holes become undefined and fail below
  if (slopes.length !== H) throw figureError(RangeError, 'figure.error.alibi-count', { H, got: slopes.length });
  slopes.forEach((m, h) => {
    if (!isAlibiSlope(m)) throw figureError(RangeError, 'figure.error.alibi-slope', { h, got: typeof m === 'number' ? m : (JSON.stringify(m) ?? String(m)) });
  });
  return slopes;
}

function checkSpec(spec) {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    throw new TypeError(`spec must be an object ({ preset, data, ... }), got ${JSON.stringify(spec) ?? String(spec)}`);
}

/** -> a conformed explorer state for spec (see the top of this file). */
export function pipelineState(spec = {}) {
  checkSpec(spec);
  let state = baseState(spec);
  const overrides = {};
  if (spec.scoring !== undefined) overrides.scoring = oneOf('scoring', spec.scoring, SCORINGS);
  if (spec.compare !== undefined) {
    if (!Array.isArray(spec.compare)) throw new TypeError(`compare must be an array of scorings, got ${JSON.stringify(spec.compare)}`);
    overrides.compare = spec.compare.map((s) => oneOf('compare', s, SCORINGS));
  }
  if (spec.causal !== undefined) overrides.causal = causalMode(spec.causal);
  if (spec.maskFill !== undefined) overrides.maskFill = maskFillMode(spec.maskFill);
  if (spec.view !== undefined) overrides.view = oneOf('view', spec.view, VIEWS);
  Object.assign(overrides, positionOverrides(spec));
  if (Object.keys(overrides).length > 0) state = conform({ ...state, ...overrides });
  if (spec.heads !== undefined) {
    if (!isIntegerIn(spec.heads, LIMITS.heads))
      throw figureError(RangeError, 'figure.error.heads-range', { range: LIMITS.heads.join(', '), got: JSON.stringify(spec.heads) });
    if (state.source !== 'self') throw figureError(TypeError, 'figure.error.needs-x', { name: 'heads' });
    state = setSize(state, 'heads', spec.heads);
  }
  if (spec.kvHeads !== undefined) {
    if (state.source !== 'self') throw figureError(TypeError, 'figure.error.needs-x', { name: 'kvHeads' });
    if (!isIntegerIn(spec.kvHeads, [1, state.heads]) || state.heads % spec.kvHeads !== 0) {
      throw figureError(RangeError, 'figure.error.kv-heads', { H: state.heads, got: JSON.stringify(spec.kvHeads) });
    }
    state = conform({ ...state, kvHeads: spec.kvHeads });
  }
  if (Array.isArray(spec.alibi)) state = conform({ ...state, alibi: slopesFor(spec.alibi, state.heads) });
  if (spec.validLens !== undefined) state = conform({ ...state, validLens: validLensOf(spec.validLens, sizesOf(state)) });
  if (spec.rope !== undefined && spec.rope !== false && state.rope === 'off') {
    throw state.source === 'self'
      ? figureError(RangeError, 'figure.error.rope-width', { d: sizesOf(state).d })
      : figureError(RangeError, 'figure.error.rope-given');
  }
  if (spec.head !== undefined) {
    if (!isIntegerIn(spec.head, [0, state.heads - 1]))
      throw figureError(RangeError, 'figure.error.head-range', { last: state.heads - 1, got: JSON.stringify(spec.head) });
    state = { ...state, head: spec.head };
  }
  return state;
}

/** -> Promise of pipelineState(spec) once the preset it names is loaded (data alone needs none; an unknown one, pipelineState names). */
export async function loadPipelineState(spec = {}) {
  checkSpec(spec);
  const { preset, data } = spec;
  if (preset === undefined ? data === undefined : PRESET_IDS.includes(preset)) await loadPreset(preset);
  return pipelineState(spec);
}
