// givenState(base, data): the state a figure's own data asks for, or a TypeError / RangeError
// that names the key. conform() repairs whatever it is handed, so that a link typed by hand still
// opens; a figure in a published post must not be repaired: its author's numbers are drawn as
// given, or the figure says which key is wrong and what it expected.
//   1. keys: every key of data is a key of the explorer state (web/model/state/model.js) or a
//      page-only one of the explorer's links (ignored here); 'Wq' is not 'wq'.
//   2. values: each array key holds nested arrays of finite numbers of its rank (wq, wk, wv and
//      q, k, v may be 2-D: one head, one batch, as the API's layers take them).
//   3. after conform(), every given value is still there: a shape or a value that conform() had
//      to change (a wk that does not fit wq, a head out of range) names the key and what it needed.
// The errors a blogger meets first (a wrong key, shape or number) are figureError()s: an element
// shows them in its language.
import { figureError } from '../../i18n/figure-text.js';
import { conform } from './conform.js';
import { ALIBI_MODES, CAUSAL_MODES, LIMITS, LOSSES, MASK_FILLS, ROPE_MODES, SCORINGS, VIEWS } from './model.js';
import { isObject } from './resize.js';

// The keys conform() reads (model.js describes each) and the explorer's page-only keys.
const STATE_KEYS = [
  'version',
  'preset',
  'source',
  'seed',
  'tokens',
  'keyTokens',
  'x',
  'heads',
  'wq',
  'wk',
  'wv',
  'wo',
  'kvHeads',
  'q',
  'k',
  'v',
  'scoring',
  'compare',
  'params',
  'hidden',
  'scale',
  'temperature',
  'causal',
  'validLens',
  'maskedCells',
  'maskFill',
  'window',
  'alibi',
  'rope',
  'ropeBase',
  'view',
  'head',
  'backward',
];
const PAGE_KEYS = ['checks', 'checked', 'speed'];

// The axes of each array key, in the letters of the model's comments.
const AXES = {
  x: ['T', 'd_in'],
  wq: ['H', 'd_in', 'd_q'],
  wk: ['H', 'd_in', 'd_q'],
  wv: ['H', 'd_in', 'd_v'],
  wo: ['H d_v', 'd_in'],
  q: ['B', 'Tq', 'd'],
  k: ['B', 'Tk', 'd'],
  v: ['B', 'Tk', 'd_v'],
  tokens: ['T'],
  keyTokens: ['Tk'],
};
// Keys whose 2-D form means one head (weights) or one batch (Q, K, V).
const STACKED = ['wq', 'wk', 'wv', 'q', 'k', 'v'];

// The keys that take one of a few words, for a message that lists them.
const CHOICES = {
  source: ['self', 'qkv'],
  scoring: SCORINGS,
  causal: CAUSAL_MODES,
  maskFill: MASK_FILLS,
  view: VIEWS,
  rope: ROPE_MODES,
  alibi: ALIBI_MODES,
  'backward.loss': LOSSES,
};
const AXIS_LIMITS = { T: 'tokens', Tq: 'tokens', Tk: 'tokens', d_in: 'width', d_q: 'width', d_v: 'width', d: 'width', H: 'heads', B: 'batch' };
const SIZE_LIMITS = { tokens: LIMITS.tokens[1], width: LIMITS.width[1], heads: LIMITS.heads[1], batch: LIMITS.batch[1] };

const show = (value) => JSON.stringify(value) ?? String(value);
const shapeText = (shape) => `(${shape.join(', ')})`;

/** The shape of a rectangular nested array of finite numbers, or a TypeError naming the first bad place. */
function numericShape(path, value, rank) {
  if (!Array.isArray(value)) throw figureError(TypeError, 'figure.error.array', { path, rank, got: show(value) });
  if (rank === 1) {
    value.forEach((x, i) => {
      if (typeof x !== 'number' || !Number.isFinite(x)) throw figureError(TypeError, 'figure.error.number', { path: `${path}[${i}]`, got: show(x) });
    });
    return [value.length];
  }
  if (value.length === 0) throw new RangeError(`${path} must not be empty`);
  const inner = numericShape(`${path}[0]`, value[0], rank - 1);
  for (let i = 1; i < value.length; i++) {
    const shape = numericShape(`${path}[${i}]`, value[i], rank - 1);
    if (shape.join() !== inner.join())
      throw figureError(RangeError, 'figure.error.rectangular', {
        path,
        row: `${path}[${i}]`,
        shape: shapeText(shape),
        first: `${path}[0]`,
        firstShape: shapeText(inner),
      });
  }
  return [value.length, ...inner];
}

/** The rank of a nested array (how many levels of arrays its first elements have). */
const depthOf = (value) => (Array.isArray(value) ? 1 + depthOf(value[0]) : 0);

/** data's array keys checked and, where 2-D stands for one head or batch, stacked -> a copy. */
function normalised(data) {
  const out = { ...data };
  for (const [key, axes] of Object.entries(AXES)) {
    if (data[key] === undefined || (key === 'wo' && data[key] === null)) continue;
    if (key === 'tokens' || key === 'keyTokens') {
      if (data[key] === null && key === 'keyTokens') continue;
      if (!Array.isArray(data[key])) throw new TypeError(`${key} must be an array of strings ${shapeText(axes)}, got ${show(data[key])}`);
      data[key].forEach((label, i) => {
        if (typeof label !== 'string' || label.trim() === '' || label.length > 24) {
          throw new TypeError(`${key}[${i}] must be a non-empty string of at most 24 characters, got ${show(label)}`);
        }
      });
      continue;
    }
    const stacked = STACKED.includes(key) && depthOf(data[key]) === 2 ? [data[key]] : data[key];
    numericShape(key, stacked, axes.length);
    out[key] = stacked;
  }
  // The loss target (B, Tq, d_out) may be 2-D too: one batch, as conform-backward.js reads it.
  if (isObject(data.backward) && depthOf(data.backward.target) === 2) out.backward = { ...data.backward, target: [data.backward.target] };
  return out;
}

/** Where `given` and `kept` first differ: a path relative to `path`, or null when equal. */
function firstDifference(path, given, kept) {
  if (Array.isArray(given) || isObject(given)) {
    if (Array.isArray(given) !== Array.isArray(kept) || !(Array.isArray(kept) || isObject(kept))) return path;
    if (Array.isArray(given) && given.length !== kept.length) return path;
    for (const key of Object.keys(given)) {
      const found = firstDifference(Array.isArray(given) ? `${path}[${key}]` : `${path}.${key}`, given[key], kept[key]);
      if (found) return found;
    }
    return null;
  }
  return Object.is(given, kept) ? null : path;
}

const shapeOf = (value) => (Array.isArray(value) ? [value.length, ...shapeOf(value[0])] : []);
/** The value at `path` (as firstDifference writes it) inside the value of its key. */
const valueAt = (root, path) =>
  path
    .split(/[.[\]]+/)
    .filter(Boolean)
    .slice(1)
    .reduce((v, k) => v?.[k], root);

/** The error for a given key that conform() changed: its shape against the shape it needed, or the value it could not keep. */
function changedError(state, key, path, given) {
  const kept = state[key];
  if (kept === undefined) return new TypeError(`${key} does not apply to this example (its source is '${state.source}')`);
  if (AXES[key] && Array.isArray(given) && Array.isArray(kept)) {
    const [had, needed] = [shapeOf(given), shapeOf(kept)];
    if (had.join() !== needed.join()) {
      const over = had.some((n, i) => n > LIMITS[AXIS_LIMITS[AXES[key][i]]]?.[1]);
      const params = { key, shape: shapeText(had), needed: shapeText(needed), axes: shapeText(AXES[key]), ...SIZE_LIMITS };
      return figureError(RangeError, over ? 'figure.error.shape-over' : 'figure.error.shape', params);
    }
    if (key === 'wk' || key === 'wv')
      return new RangeError(`${path} differs from its group's first head: with kvHeads, the heads of one group share W^K and W^V`);
  }
  if (CHOICES[path]) return new TypeError(`${path} must be one of ${CHOICES[path].map(show).join(', ')}, got ${show(valueAt(given, path))}`);
  return new RangeError(`${path} cannot be ${show(valueAt(given, path))} in this example (it would be drawn as ${show(valueAt(kept, path))})`);
}

/**
 * base: the preset's raw state ({ preset: 'custom' } for data alone); data: the figure's partial
 * state. -> the conformed state, with every value of data as given (2-D weights as one head).
 */
export function givenState(base, data) {
  const unknown = Object.keys(data).filter((key) => !STATE_KEYS.includes(key) && !PAGE_KEYS.includes(key));
  if (unknown.length > 0) {
    const [key] = unknown;
    const near = STATE_KEYS.find((known) => known.toLowerCase() === key.toLowerCase());
    const known = STATE_KEYS.join(', ');
    throw figureError(TypeError, near ? 'figure.error.unknown-key-near' : 'figure.error.unknown-key', { key, near, known });
  }
  const given = normalised(data);
  for (const key of PAGE_KEYS) delete given[key];
  // Given Q, K, V (and no X) make a 'qkv' example, X makes a 'self' one, unless the data names its source.
  const source = given.source ?? (given.q && !given.x ? 'qkv' : given.x ? 'self' : base.source);
  const state = conform({ ...base, ...given, source });
  for (const key of Object.keys(given)) {
    if (key === 'version' || key === 'heads') continue; // heads: the length of the weights, compared there
    const path = firstDifference(key, given[key], state[key]);
    if (path) throw changedError(state, key, path, given[key]);
  }
  if (given.heads !== undefined && given.heads !== state.heads) {
    throw new RangeError(`heads cannot be ${show(given.heads)} in this example (it has ${state.heads})`);
  }
  return state;
}
