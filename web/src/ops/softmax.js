// maskedSoftmax and its backward: x (B, H, Tq, Tk) of rank 1 to 4, where rank 3 is (B, Tq, Tk)
// (H = 1, as for q), rank 2 (Tq, Tk) and rank 1 (Tk). Masks as in boundary/masks.js.
import { MASK_OPTIONS, axesOfRank, resolveMask } from '../boundary/masks.js';
import { withArena } from '../boundary/memory.js';
import { callEntry } from '../boundary/packed.js';
import { formatShape, tensor } from '../boundary/tensor.js';
import { expectKnownOptions, expectSameShape, inputTensor } from '../boundary/validate.js';

/** x of rank 1..4 (the argument `name`) -> the binding's SoftmaxArgs sizes and the mask, for `options`. */
function softmaxSetup(fn, name, x, options) {
  const rank = x.shape.length;
  if (rank < 1 || rank > 4) {
    throw new RangeError(`${fn}: ${name} must have rank 1 to 4 (..., Tq, Tk), got rank ${rank} ${formatShape(x.shape)}`);
  }
  if (x.shape.includes(0)) throw new RangeError(`${fn}: ${name} must not have an empty axis, got ${formatShape(x.shape)}`);
  const axes = axesOfRank(rank);
  const full = [1, 1, 1, 1];
  axes.forEach((a, r) => (full[a] = x.shape[r]));
  const [B, H, Tq, Tk] = full;
  const mask = resolveMask(fn, options, { B, H, Tq, Tk, axes });
  return { args: { B, H, Tq, Tk, mask: mask.args }, maskBuffers: mask.buffers };
}

/** x (..., Tq, Tk) -> weights of x's shape: softmax over the keys each row may see. */
export function maskedSoftmax(module, x, options) {
  const fn = 'maskedSoftmax';
  const opts = expectKnownOptions(fn, options, MASK_OPTIONS);
  // -Infinity is a legitimate masked score (e.g. trace.masked of an attention call).
  const xt = inputTensor(fn, 'x', x, { allowNegativeInfinity: true });
  const { args, maskBuffers } = softmaxSetup(fn, 'x', xt, opts);
  // y is written over x in wasm memory (the core allows it): half the memory, no second stream.
  return withArena(module, fn, { x: xt, y: 'x', ...maskBuffers }, (buffers, read) => {
    callEntry(module, 'maskedSoftmaxForward', args, buffers);
    return tensor(read('y'), xt.shape);
  });
}

/** weights y and dWeights dy of the same shape -> dx = y * (dy - sum(y * dy)) per row, 0 where masked. */
export function maskedSoftmaxBackward(module, weights, dWeights, options) {
  const fn = 'maskedSoftmaxBackward';
  const opts = expectKnownOptions(fn, options, MASK_OPTIONS);
  const y = inputTensor(fn, 'weights', weights);
  const dy = inputTensor(fn, 'dWeights', dWeights);
  const { args, maskBuffers } = softmaxSetup(fn, 'weights', y, opts);
  expectSameShape(fn, 'dWeights', dy, y.shape, 'weights');
  return withArena(module, fn, { y, dy, dx: 'dy', ...maskBuffers }, (buffers, read) => {
    callEntry(module, 'maskedSoftmaxBackward', args, buffers);
    return tensor(read('dx'), y.shape);
  });
}
