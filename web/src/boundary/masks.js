// MaskOptions (validLens, causal, attnMask, maskFill, window, alibi) -> the binding's MaskArgs and
// the mask buffers to place in wasm memory. See docs/semantics.md "Scores, masks, softmax".
//
// The scores an op masks are (B, H, Tq, Tk); the caller sees them in its own rank, e.g.
// (B, Tq, Tk) for rank-3 q. `scores.axes` lists which of the four axes the caller's rank shows
// (rank 4: [0, 1, 2, 3], rank 3: [0, 2, 3], rank 2: [2, 3], rank 1: [3]); attnMask broadcasts
// numpy-style, right-aligned, against that shape.
import { expectAttached, expectDataFits, fieldOf, formatShape, tensorShape, toTensor } from './tensor.js';
import { sharedAs, typedKind, typedLength } from './typed.js';
import { alibiSlopes } from './alibi-slopes.js';
import { got, optionName, withApiMessage } from './api-message.js';

/** The option names of MaskOptions (index.d.ts). */
export const MASK_OPTIONS = ['validLens', 'causal', 'attnMask', 'maskFill', 'window', 'alibi'];

const CAUSAL = new Map([
  [false, 0],
  [true, 1],
  ['top-left', 1],
  ['bottom-right', 2],
]);

/** The scores' shape as the caller sees it. */
export function visibleScoresShape(scores) {
  const full = [scores.B, scores.H, scores.Tq, scores.Tk];
  return scores.axes.map((a) => full[a]);
}

const AXES_OF_RANK = Object.freeze({
  1: Object.freeze([3]),
  2: Object.freeze([2, 3]),
  3: Object.freeze([0, 2, 3]),
  4: Object.freeze([0, 1, 2, 3]),
});

/** Which of (B, H, Tq, Tk) a tensor of `rank` shows: the shape conventions of docs/semantics.md. Shared: do not modify. */
export function axesOfRank(rank) {
  return AXES_OF_RANK[rank];
}

/** causal option -> the core's Causal code (0 none, 1 top-left, 2 bottom-right). */
export function causalCode(fn, causal) {
  if (causal === undefined || causal === null) return 0;
  const code = CAUSAL.get(causal);
  if (code === undefined) {
    const got = typeof causal === 'string' ? `'${causal}'` : `${typeof causal} ${String(causal)}`;
    throw new TypeError(`${fn}: causal must be true, false, 'top-left' or 'bottom-right', got ${got}`);
  }
  return code;
}

/** validLens (B) or (B, Tq) -> Int32Array; lengths beyond Tk mean Tk (and stay in int32 range). */
function validLensBuffer(fn, validLens, { B, Tq, Tk }) {
  const lens = toTensor(validLens, `${fn}: validLens`, Float64Array);
  const perRow = lens.shape.length === 2;
  const fits = perRow ? lens.shape[0] === B && lens.shape[1] === Tq : lens.shape.length === 1 && lens.shape[0] === B;
  if (!fits) {
    throw new RangeError(`${fn}: validLens must have shape (B) = [${B}] or (B, Tq) = [${B}, ${Tq}], got ${formatShape(lens.shape)}`);
  }
  const out = new Int32Array(lens.data.length);
  lens.data.forEach((len, i) => {
    if (!(Number.isInteger(len) && len >= 0)) {
      throw new RangeError(`${fn}: validLens must hold non-negative integers, got ${len} at flat index ${i}`);
    }
    out[i] = Math.min(len, Tk);
  });
  return { perRow, data: out };
}

/** Index of the first NaN or +Infinity (by index: a caller's array may carry its own findIndex), or -1. */
function firstNaNOrInfinity(values) {
  for (let i = 0, n = typedLength(values); i < n; i++) if (Number.isNaN(values[i]) || values[i] === Infinity) return i;
  return -1;
}

/**
 * attnMask data -> bool (a Uint8Array, 1 = may attend) or float (a Float32Array, added to the
 * scores); shared when it is a plain array of that type (typed.js), else copied.
 */
function maskData(fn, data) {
  const kind = typedKind(data);
  if (kind === 'Uint8Array' || kind === 'Uint8ClampedArray') {
    return { boolMask: sharedAs(data, Uint8Array) ? data : new Uint8Array(data) };
  }
  if (Array.isArray(data)) {
    const values = Array.from({ length: data.length }, (_, i) => data[i]); // each element read once
    if (values.every((x) => typeof x === 'boolean')) return { boolMask: Uint8Array.from(values, Number) };
  }
  if (kind === 'Float32Array' || kind === 'Float64Array') {
    const values = sharedAs(data, Float32Array) ? data : new Float32Array(data);
    const bad = firstNaNOrInfinity(values);
    if (bad >= 0) {
      throw new TypeError(`${fn}: a float attnMask must hold finite numbers or -Infinity, got ${values[bad]} at flat index ${bad}`);
    }
    return { floatMask: values };
  }
  const got = kind ?? (Array.isArray(data) ? 'an array of non-booleans' : typeof data);
  throw new TypeError(`${fn}: attnMask.data must be a Uint8Array (boolean, 1 = may attend) or a Float32Array (added to the scores), got ${got}`);
}

/** Element strides of the mask for (b, h, i, j): right-aligned broadcast against the visible scores. */
function maskStrides(fn, maskShape, scores) {
  const target = visibleScoresShape(scores);
  const shown = `${formatShape(target)} (the scores (B, H, Tq, Tk) in the rank of the input)`;
  if (maskShape.length > 4) {
    throw new RangeError(`${fn}: attnMask must have rank 4 or less, got shape ${formatShape(maskShape)}`);
  }
  const strides4 = [0, 0, 0, 0];
  let stride = 1;
  for (let m = maskShape.length - 1; m >= 0; m--) {
    const t = target.length - maskShape.length + m; // the scores axis this mask axis aligns with
    const size = maskShape[m];
    const wanted = t >= 0 ? target[t] : 1;
    if (size !== 1 && size !== wanted) {
      throw new RangeError(
        `${fn}: attnMask of shape ${formatShape(maskShape)} does not broadcast to ${shown}: ` + `axis ${m} has ${size}, expected 1 or ${wanted}`,
      );
    }
    if (t >= 0 && size !== 1) strides4[scores.axes[t]] = stride;
    stride *= size;
  }
  return strides4;
}

/**
 * window [left, right] -> the binding's windowLeft, windowRight: FlashAttention's sliding window,
 * key j visible from query i when i + (Tk - Tq) - left <= j <= i + (Tk - Tq) + right; -1 leaves a
 * side open. Integers only, and below 2^31 (the core's int).
 */
function windowSides(fn, window) {
  if (window === undefined || window === null) return [-1, -1];
  if (!Array.isArray(window) || window.length !== 2) {
    const message = `${fn}: window must be [left, right] (integers >= -1, -1 = no limit), got ${describe(window)}`;
    throw withApiMessage(new TypeError(message), 'window-shape', { got: got(window) });
  }
  // Read once (what is checked is what is used), as own elements: a hole never reads a prototype.
  const sides = [0, 1].map((n) => (Object.hasOwn(window, n) ? window[n] : undefined));
  sides.forEach((side, n) => {
    if (!(Number.isInteger(side) && side >= -1 && side < 2 ** 31)) {
      const name = n === 0 ? 'left' : 'right';
      const message = `${fn}: window[${n}] (${name}) must be an integer >= -1 and < 2^31, got ${describe(side)}`;
      throw withApiMessage(new RangeError(message), 'window-side', { index: n, side: optionName(`window-${name}`), got: got(side) });
    }
  });
  return sides;
}

function describe(x) {
  if (Array.isArray(x)) return `an array of length ${x.length}`;
  return typeof x === 'string' ? `'${x}'` : `${typeof x} ${String(x)}`;
}

/** alibi option -> Float32Array (H) of slopes, or undefined. */
function alibiBuffer(fn, alibi, { H, Tq, Tk }) {
  if (alibi === undefined || alibi === null || alibi === false) return undefined;
  const slopes = alibi === true ? alibiSlopes(H) : alibi;
  const kind = typedKind(slopes);
  if (!(Array.isArray(slopes) || kind === 'Float32Array' || kind === 'Float64Array')) {
    throw withApiMessage(new TypeError(`${fn}: alibi must be true or a list of H slopes (one per head), got ${describe(alibi)}`), 'alibi-type', {
      got: got(alibi),
    });
  }
  expectAttached(slopes, `${fn}: alibi`);
  // A typed array's length and elements through its intrinsics, an array's as own elements only.
  const length = kind === undefined ? slopes.length : typedLength(slopes);
  if (length !== H) {
    throw withApiMessage(new RangeError(`${fn}: alibi must hold one slope per head, H = ${H}, got ${length}`), 'alibi-count', { heads: H, count: length });
  }
  const out = new Float32Array(H);
  for (let h = 0; h < H; h++) {
    const m = kind !== undefined || Object.hasOwn(slopes, h) ? slopes[h] : undefined;
    // -slope * distance must stay a float32 number for every distance up to Tq + Tk.
    if (!(typeof m === 'number' && Number.isFinite(m) && Math.abs(Math.fround(m)) * (Tq + Tk) < 3.4e38)) {
      const message = `${fn}: alibi[${h}] must be a finite number with |slope| (Tq + Tk) within float32, got ${describe(m)}`;
      throw withApiMessage(new RangeError(message), 'alibi-slope', { index: h, got: got(m) });
    }
    out[h] = m;
  }
  return out;
}

/**
 * options: MaskOptions (own properties only, see validate.js); scores: { B, H, Tq, Tk, axes }.
 * Returns { args: MaskArgs for the binding, buffers: { validLens? (Int32Array), boolMask?, floatMask?
 * ({ data, shape } tensors: the arena checks their data against the shape again), alibiSlopes?
 * (Float32Array (H)) } }.
 */
export function resolveMask(fn, options, scores) {
  const args = {
    validLensPerRow: false,
    causal: causalCode(fn, options.causal),
    strideB: 0,
    strideH: 0,
    strideI: 0,
    strideJ: 0,
    useFill: false,
    fill: 0,
    windowLeft: -1,
    windowRight: -1,
  };
  const buffers = {};
  [args.windowLeft, args.windowRight] = windowSides(fn, options.window);
  const slopes = alibiBuffer(fn, options.alibi, scores);
  if (slopes !== undefined) buffers.alibiSlopes = slopes;
  if (options.validLens !== undefined && options.validLens !== null) {
    const lens = validLensBuffer(fn, options.validLens, scores);
    args.validLensPerRow = lens.perRow;
    buffers.validLens = lens.data;
  }
  if (options.attnMask !== undefined && options.attnMask !== null) {
    const mask = options.attnMask;
    const data = typeof mask === 'object' ? fieldOf(mask, 'data') : undefined; // each read once
    const maskShape = typeof mask === 'object' ? fieldOf(mask, 'shape') : undefined;
    if (data === undefined || maskShape === undefined) {
      throw new TypeError(`${fn}: attnMask must be { data: Uint8Array | Float32Array, shape }`);
    }
    expectAttached(data, `${fn}: attnMask.data`);
    const shape = tensorShape(maskShape, `${fn}: attnMask`);
    const [[kind, values]] = Object.entries(maskData(fn, data));
    expectDataFits(values, shape, `${fn}: attnMask`);
    buffers[kind] = { data: values, shape };
    [args.strideB, args.strideH, args.strideI, args.strideJ] = maskStrides(fn, shape, scores);
  }
  if (options.maskFill !== undefined) {
    const fill = options.maskFill;
    if (typeof fill !== 'number' || !Number.isFinite(fill)) {
      throw new TypeError(`${fn}: maskFill must be a finite number (d2l uses -1e6), got ${String(fill)}`);
    }
    // The core computes in float32: 1e39 would be Infinity there (NaN rows, or zeros for d2l's uniform row).
    if (!Number.isFinite(Math.fround(fill))) {
      throw new RangeError(`${fn}: maskFill must be finite in float32 (|maskFill| < 3.4e38; d2l uses -1e6), got ${fill}`);
    }
    args.useFill = true;
    args.fill = fill;
  }
  return { args, buffers };
}
