// Issue 37, finding 6 (the API boundary): inputs that once got through or failed without naming
// their argument. Names inherited from Object.prototype are never read as a tensor's data or shape.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention, toTensor } from '../../web/src/index.js';

/** The error `call` throws (or undefined). */
function thrown(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** A typed array of `values` whose buffer was then transferred away (as postMessage(..., [buffer]) does). */
function detached(ArrayType, values) {
  const array = ArrayType.from(values);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}

let attn;
beforeAll(async () => {
  attn = await loadAttention();
});

describe('a polluted Object.prototype.data and .shape', () => {
  afterEach(() => {
    delete Object.prototype.data;
    delete Object.prototype.shape;
    delete Object.prototype.output;
    delete Object.prototype.lse;
  });

  it('maskedSoftmax({}) is refused: an empty object is no tensor, whatever Object.prototype holds', () => {
    Object.prototype.data = Float32Array.of(1, 2);
    Object.prototype.shape = [1, 2];
    const error = thrown(() => attn.maskedSoftmax({}));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('maskedSoftmax: x must be a tensor { data, shape } or nested arrays of numbers, got an object with keys []');
    expect(thrown(() => toTensor({ shape: [2] }, 'x'))?.message).toMatch(/^x must be a tensor \{ data, shape \}/);
    const maskError = thrown(() => attn.maskedSoftmax([[1, 2]], { attnMask: {} }));
    expect(maskError).toBeInstanceOf(TypeError);
    expect(maskError.message).toMatch(/^maskedSoftmax: attnMask must be \{ data: Uint8Array \| Float32Array, shape \}/);
  });

  it('saved: {} is refused though Object.prototype holds an output and an lse', () => {
    const x = [[1, 0], [0, 1]];
    const forward = attn.scaledDotProductAttention(x, x, x, { returnLse: true });
    Object.prototype.output = forward.output;
    Object.prototype.lse = forward.lse;
    const error = thrown(() => attn.scaledDotProductAttentionBackward(x, x, x, x, { saved: {} }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^scaledDotProductAttentionBackward: saved must be the forward's result with output and lse/);
  });

  it('a class instance whose data and shape are getters of its class is still a tensor', () => {
    Object.prototype.data = Float32Array.of(9, 9, 9, 9);
    Object.prototype.shape = [4];
    const held = new (class Held {
      get data() {
        return Float32Array.of(0, 0);
      }
      get shape() {
        return [1, 2];
      }
    })();
    expect(attn.maskedSoftmax(held)).toEqual({ data: Float32Array.of(0.5, 0.5), shape: [1, 2] });
  });
});
