// Boundary checks of the public API. Every message names the function and the argument and,
// for shapes, gives the expected shape (in the letters of docs/semantics.md) and the actual one.
// Structure errors (wrong type) are TypeErrors; wrong sizes and out-of-range values RangeErrors.
import { RENAMED_OPTIONS, renamedError } from './renamed.js';
import { expectAttached, formatShape, toTensor } from './tensor.js';
import { setInto, typedKind, typedLength } from './typed.js';

/**
 * Converts an input tensor and rejects NaN and infinities (one cheap pass over the data).
 * scanInArena: the caller places the tensor in a wasm arena right away, and memory.js scans the
 * copy there with the core's SIMD kernel instead (t.unscanned names the argument for its error).
 */
export function inputTensor(fn, name, value, { allowNegativeInfinity = false, scanInArena = false } = {}) {
  const t = toTensor(value, `${fn}: ${name}`);
  if (scanInArena && !allowNegativeInfinity) {
    t.unscanned = name;
    return t;
  }
  const bad = firstNonFinite(t.data, allowNegativeInfinity);
  if (bad >= 0) throw nonFiniteError(fn, name, t, bad, allowNegativeInfinity);
  return t;
}

/** The TypeError for the element at flat index `bad` of t, which is not a number the argument takes. */
export function nonFiniteError(fn, name, t, bad, allowNegativeInfinity = false) {
  const allowed = allowNegativeInfinity ? 'finite numbers or -Infinity' : 'finite numbers';
  return new TypeError(`${fn}: ${name} must hold ${allowed}, got ${t.data[bad]} at flat index ${bad} of shape ${formatShape(t.shape)}`);
}

/**
 * Index of the first NaN or +-Infinity in the Float32Array `data` (-Infinity passes when allowed),
 * or -1. Eight elements are tested at once: their sum in float64 cannot overflow (8 floats are at
 * most 2.8e39), so it is finite exactly when all eight are, and x - x is 0 exactly for finite x.
 * Only a block that fails this is looked at element by element: one test per 8 elements
 * instead of one per element, in what is most of a large maskedSoftmax call's JS time.
 */
export function firstNonFinite(data, allowNegativeInfinity = false) {
  const n = typedLength(data);
  const blocks = n - (n % 8);
  for (let i = 0; i < blocks; i += 8) {
    const s = data[i] + data[i + 1] + (data[i + 2] + data[i + 3]) + (data[i + 4] + data[i + 5] + (data[i + 6] + data[i + 7]));
    if (s - s !== 0) {
      const bad = firstNonFiniteIn(data, i, i + 8, allowNegativeInfinity);
      if (bad >= 0) return bad;
    }
  }
  return firstNonFiniteIn(data, blocks, n, allowNegativeInfinity);
}

function firstNonFiniteIn(data, start, end, allowNegativeInfinity) {
  for (let i = start; i < end; i++) {
    const x = data[i];
    if (x - x !== 0 && !(allowNegativeInfinity && x === -Infinity)) return i;
  }
  return -1;
}

/** "(B, Tk, d=4)": the axes in letters, with the sizes they must have. */
function describeAxes(axes) {
  return `(${axes.map(([letter, size]) => (size === undefined ? letter : `${letter}=${size}`)).join(', ')})`;
}

/**
 * Checks a tensor's shape against named axes: `axes` is a list of [letter, expected] where
 * expected is a size or undefined (free). Returns the actual sizes by letter.
 * Messages are built only on failure: this runs several times in every call.
 */
export function expectAxes(fn, name, t, axes) {
  const shape = t.shape;
  let fits = shape.length === axes.length;
  let empty = false;
  for (let a = 0; fits && a < axes.length; a++) {
    const size = axes[a].length > 1 ? axes[a][1] : undefined; // a free axis has no element 1 (never read it through a polluted prototype)
    fits = size === undefined || shape[a] === size;
    empty ||= shape[a] === 0;
  }
  if (!fits) {
    throw new RangeError(`${fn}: ${name} must have shape ${describeAxes(axes)}, got ${formatShape(shape)}`);
  }
  if (empty) {
    throw new RangeError(`${fn}: ${name} ${describeAxes(axes)} must not have an empty axis, got ${formatShape(shape)}`);
  }
  const sizes = Object.create(null);
  for (let a = 0; a < axes.length; a++) sizes[axes[a][0]] = shape[a];
  return sizes;
}

/** A gradient must have exactly the shape of what it is the gradient of. */
export function expectSameShape(fn, name, t, shape, what) {
  const same = t.shape.length === shape.length && t.shape.every((s, a) => s === shape[a]);
  if (!same) {
    throw new RangeError(`${fn}: ${name} must have the shape of ${what}, ${formatShape(shape)}, got ${formatShape(t.shape)}`);
  }
}

const NO_OPTIONS = Object.freeze(Object.create(null));

/**
 * Rejects option names the function does not know (a typo such as `casual` would otherwise be
 * ignored) and returns the options as a copy without a prototype: each own option read once (a
 * getter runs once), and nothing inherited (a polluted Object.prototype) is ever read as an option.
 */
export function expectKnownOptions(fn, options, known) {
  if (options === undefined) return NO_OPTIONS;
  const own = Object.create(null);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${fn}: options must be an object, got ${options === null ? 'null' : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const renamed = RENAMED_OPTIONS[key];
      if (renamed !== undefined && known.includes(renamed)) throw renamedError(fn, key, renamed);
      throw new TypeError(`${fn}: unknown option '${key}' (known: ${known.join(', ')})`);
    }
    own[key] = options[key];
  }
  return own;
}

/**
 * A numeric option: undefined gives `fallback`; otherwise it must be a number that passes `valid`,
 * described by `requirement` in the message ("a finite number > 0").
 */
export function numberOption(fn, options, key, fallback, valid, requirement) {
  const x = options[key];
  if (x === undefined) return fallback;
  if (typeof x !== 'number') throw new TypeError(`${fn}: ${key} must be ${requirement}, got ${typeof x} ${String(x)}`);
  if (!valid(x)) throw new RangeError(`${fn}: ${key} must be ${requirement}, got ${x}`);
  return x;
}

export function booleanOption(fn, options, key) {
  const x = options[key];
  if (x === undefined) return false;
  if (typeof x !== 'boolean') throw new TypeError(`${fn}: ${key} must be true or false, got ${typeof x} ${String(x)}`);
  return x;
}

/**
 * options.out: undefined, or the caller's Float32Array of exactly `floats` elements that a call
 * writes its output into, and returns as the output's data, instead of a fresh array (so a loop of
 * calls allocates nothing: a fresh output's pages are faulted in on every call). `what` names the output in messages ('the output (B, H, Tq, dv) [1, 8, 512, 64]').
 */
export function outOption(fn, options, floats, what) {
  const out = options.out;
  if (out === undefined) return undefined;
  const kind = typedKind(out);
  if (kind !== 'Float32Array') {
    const given = kind ?? (out === null ? 'null' : Array.isArray(out) ? 'an array' : typeof out);
    throw new TypeError(`${fn}: out must be a Float32Array of ${floats} floats for ${what}, got ${given}`);
  }
  expectAttached(out, `${fn}: out`);
  const length = typedLength(out);
  if (length !== floats) throw new RangeError(`${fn}: out must hold ${floats} floats for ${what}, got ${length}`);
  return out;
}

/**
 * Writes a call's finished output into the caller's out (outOption) and returns it. Its length is
 * read again: code that ran since it was checked (a later argument's getter, or anything while a
 * pooled call awaited its workers) may have detached or resized its buffer.
 */
export function writeOut(fn, out, source) {
  const length = typedLength(out);
  const wanted = typedLength(source);
  if (length !== wanted) {
    throw new RangeError(`${fn}: out holds ${length} floats now but the output needs ${wanted} (was its buffer detached or resized during the call?)`);
  }
  setInto(out, source);
  return out;
}

// The core computes in float32: an option must keep its meaning after Math.fround (1e39 becomes
// Infinity, 1e-46 becomes 0, 1 - 1e-9 becomes 1), or the answer would be silently wrong.
const finite32 = (x) => Number.isFinite(x) && Number.isFinite(Math.fround(x));
const positiveFinite32 = (x) => finite32(x) && Math.fround(x) > 0;
const nonNegativeFinite32 = (x) => finite32(x) && x >= 0;
const probability32 = (x) => x >= 0 && Math.fround(x) < 1;
const seedValue = (x) => Number.isSafeInteger(x) && x >= 0;

/** A scale option: finite and > 0 after the conversion to float32. */
export function scaleOption(fn, options, fallback) {
  return numberOption(fn, options, 'scale', fallback, positiveFinite32, 'a finite number > 0 in float32');
}

/** rope's base (frequency i of the d/2 pairs is base^(-2i/d)): finite and > 0 in float32. */
export function ropeBaseOption(fn, options) {
  return numberOption(fn, options, 'base', 10000, positiveFinite32, 'a finite number > 0 in float32');
}

/** A learning rate: finite in float32. */
export function learningRateOption(fn, options) {
  return numberOption(fn, options, 'learningRate', undefined, finite32, 'a finite number in float32');
}

/** The options every dot-product attention shares: scale, softcap, dropout, dropoutSeed. */
export function dotProductOptions(fn, options, defaultScale) {
  return {
    scale: scaleOption(fn, options, defaultScale),
    softcap: numberOption(fn, options, 'softcap', 0, nonNegativeFinite32, 'a finite number >= 0 in float32 (0: off)'),
    dropout: numberOption(fn, options, 'dropout', 0, probability32, 'a probability in [0, 1) in float32'),
    seed: numberOption(fn, options, 'dropoutSeed', 0, seedValue, 'an integer in [0, 2^53)'),
  };
}
