// A batch of token sequences for a transformer, checked: tokens (B, T) of integer ids in
// [0, vocab) with T <= maxLength, and a loss's targets (B, T) and lossMask (B, T) of 0 and 1.
// Messages name the argument and the first element that is wrong.
import { toTensor, formatShape } from '../boundary/tensor.js';
import { typedKind } from '../boundary/typed.js';

/** { data, shape } or nested arrays of integers -> { data: Int32Array, shape } (shared when already an Int32Array tensor). */
function integerTensor(fn, name, value) {
  if (typedKind(value?.data) === 'Int32Array' || typedKind(value) === 'Int32Array') return toTensor(value, `${fn}: ${name}`, Int32Array);
  const t = toTensor(value, `${fn}: ${name}`, Float64Array); // exact for every id, so a fraction is seen
  for (let i = 0; i < t.data.length; i++) {
    if (!Number.isInteger(t.data[i])) {
      throw new TypeError(`${fn}: ${name} must hold integers, got ${t.data[i]} at flat index ${i} of shape ${formatShape(t.shape)}`);
    }
  }
  return { data: Int32Array.from(t.data, (x) => (Math.abs(x) < 2 ** 31 ? x : -1)), shape: t.shape };
}

/** tokens -> { data: Int32Array, B, T }: shape (B, T), ids in [0, vocab), T <= maxLength. */
export function tokenBatch(fn, value, { vocab, maxLength }) {
  const t = integerTensor(fn, 'tokens', value);
  if (t.shape.length !== 2 || t.shape[0] === 0 || t.shape[1] === 0) {
    throw new RangeError(`${fn}: tokens must have shape (B, T) with B, T >= 1, got ${formatShape(t.shape)}`);
  }
  const [B, T] = t.shape;
  if (T > maxLength) throw new RangeError(`${fn}: tokens has T = ${T} positions, more than the model's maxLength ${maxLength}`);
  const bad = t.data.findIndex((id) => id < 0 || id >= vocab);
  if (bad >= 0) {
    throw new RangeError(`${fn}: tokens must be ids in [0, vocab = ${vocab}), got ${t.data[bad]} at [${Math.floor(bad / T)}, ${bad % T}]`);
  }
  return { data: t.data, B, T };
}

/**
 * The loss's { targets: Int32Array, lossMask: Uint8Array } for a batch (B, T). Given targets count
 * everywhere unless lossMask says otherwise; by default the targets are the next tokens and the last
 * position does not count (logits[:, :-1] against tokens[:, 1:]), a given lossMask further limiting
 * them. Targets must be in [0, vocab) where they count (elsewhere any integer: PyTorch's -100 too).
 */
export function lossTargets(fn, batch, options, vocab) {
  const { B, T } = batch;
  const lossMask = options.lossMask === undefined ? null : maskOf(fn, options.lossMask, B, T);
  let targets;
  const counted = new Uint8Array(B * T);
  if (options.targets === undefined) {
    targets = new Int32Array(B * T);
    for (let n = 0; n < B * T; n++) {
      const hasNext = n % T < T - 1;
      targets[n] = hasNext ? batch.data[n + 1] : 0;
      counted[n] = hasNext && (lossMask === null || lossMask[n] === 1) ? 1 : 0;
    }
  } else {
    const t = integerTensor(fn, 'targets', options.targets);
    if (t.shape.length !== 2 || t.shape[0] !== B || t.shape[1] !== T) {
      throw new RangeError(`${fn}: targets must have the shape of tokens, [${B}, ${T}], got ${formatShape(t.shape)}`);
    }
    targets = Int32Array.from(t.data); // a copy: positions that do not count are set to 0 below
    for (let n = 0; n < B * T; n++) {
      counted[n] = lossMask === null || lossMask[n] === 1 ? 1 : 0;
      if (counted[n] === 0) targets[n] = 0;
      else if (targets[n] < 0 || targets[n] >= vocab) {
        throw new RangeError(`${fn}: targets must be ids in [0, vocab = ${vocab}) where lossMask counts, got ${t.data[n]} at [${Math.floor(n / T)}, ${n % T}]`);
      }
    }
  }
  if (!counted.includes(1)) {
    throw new RangeError(
      `${fn}: lossMask counts no position${options.targets === undefined ? ' that has a next token (the last position never does)' : ''}: at least one must count`,
    );
  }
  return { targets, lossMask: counted };
}

/** lossMask (B, T) of 0/1 numbers or booleans -> Uint8Array. */
function maskOf(fn, value, B, T) {
  const nested = Array.isArray(value) ? value.map((row) => (Array.isArray(row) ? row.map((x) => (typeof x === 'boolean' ? +x : x)) : row)) : value;
  const t = toTensor(nested, `${fn}: lossMask`, Float64Array);
  if (t.shape.length !== 2 || t.shape[0] !== B || t.shape[1] !== T) {
    throw new RangeError(`${fn}: lossMask must have the shape of tokens, [${B}, ${T}], got ${formatShape(t.shape)}`);
  }
  const bad = t.data.findIndex((x) => x !== 0 && x !== 1);
  if (bad >= 0) throw new RangeError(`${fn}: lossMask must hold 0 and 1 (or false and true), got ${t.data[bad]} at flat index ${bad}`);
  return Uint8Array.from(t.data);
}
