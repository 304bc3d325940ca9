// Rotary position embeddings (RoPE) and their backward: x (..., T, d) with d even, every leading
// axis (B, H, ...) flattened into N rows of T positions. See cpp/include/attnlab/rope.hpp.
import { withArena } from '../boundary/memory.js';
import { callEntry } from '../boundary/packed.js';
import { formatShape, shapeSize, tensor } from '../boundary/tensor.js';
import { booleanOption, expectKnownOptions, inputTensor, numberOption, ropeBaseOption } from '../boundary/validate.js';

const ROPE_OPTIONS = ['base', 'offset', 'interleaved'];
const position = (x) => Number.isSafeInteger(x) && x >= 0;

/** options -> the binding's RopeArgs for x of `shape` (checked: rank >= 2, d even). */
function ropeArgs(fn, name, shape, options) {
  const opts = expectKnownOptions(fn, options, ROPE_OPTIONS);
  if (shape.length < 2) {
    throw new RangeError(`${fn}: ${name} must have rank 2 or more (..., T, d), got ${formatShape(shape)}`);
  }
  if (shape.includes(0)) throw new RangeError(`${fn}: ${name} must not have an empty axis, got ${formatShape(shape)}`);
  const d = shape[shape.length - 1];
  const T = shape[shape.length - 2];
  if (d % 2 !== 0) {
    throw new RangeError(`${fn}: ${name} must have an even last axis d (rope rotates pairs of features), got d = ${d} in ${formatShape(shape)}`);
  }
  return {
    N: shapeSize(shape) / (T * d),
    T,
    d,
    base: ropeBaseOption(fn, opts),
    offset: numberOption(fn, opts, 'offset', 0, position, 'an integer >= 0 (the position of the first row)'),
    interleaved: booleanOption(fn, opts, 'interleaved'),
  };
}

function rotate(module, fn, entry, name, value, options, [input, output]) {
  const t = inputTensor(fn, name, value);
  const args = ropeArgs(fn, name, t.shape, options);
  // The output is written over the input in wasm memory (the core allows it).
  return withArena(module, fn, { [input]: t, [output]: input }, (buffers, read) => {
    callEntry(module, entry, args, buffers);
    return tensor(read(output), t.shape);
  });
}

/** x (..., T, d) -> x with each pair of features of row t rotated by (offset + t) base^(-2i/d). */
export function rope(module, x, options) {
  return rotate(module, 'rope', 'ropeForward', 'x', x, options, ['x', 'y']);
}

/** dOutput (..., T, d) -> dx: the rotation by the opposite angles (rope's transpose). */
export function ropeBackward(module, dOutput, options) {
  return rotate(module, 'ropeBackward', 'ropeBackward', 'dOutput', dOutput, options, ['dy', 'dx']);
}
