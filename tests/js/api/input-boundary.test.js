// Issue 37, finding 6 (the API boundary): inputs that once got through or failed without naming
// their argument. Names inherited from Object.prototype are never read as a tensor's data or shape;
// nested arrays are measured before anything is allocated for them; a typed array whose buffer was
// transferred is a TypeError "... is detached" wherever the API reads one.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention, toTensor } from '../../../web/src/index.js';

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
    const x = [
      [1, 0],
      [0, 1],
    ];
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

describe('nested arrays are measured before they are flattened', () => {
  it('a 2^15 x 2^15 nested array of one reused row is refused at once, nothing allocated', () => {
    const row = new Array(2 ** 15).fill(0);
    const rows = new Array(2 ** 15).fill(row); // 2^30 numbers (4 GiB of float32) from 256 KiB of arrays
    const started = performance.now();
    const error = thrown(() => attn.maskedSoftmax(rows));
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(
      /^maskedSoftmax: x: nested arrays of shape \[32768, 32768\] hold 1073741824 numbers, more than the 536854528 one tensor may hold/,
    );
    // Flattening took 36 s here before; measuring takes microseconds. A second leaves room for a busy machine.
    expect(ms).toBeLessThan(1000);
  });

  it('the limit counts the rows too: 2^30 empty rows are refused without being walked', () => {
    const empty = [];
    const inner = new Array(2 ** 15).fill(empty);
    const rows = new Array(2 ** 15).fill(inner); // shape [32768, 32768, 0]: no numbers, 2^30 arrays to visit
    const started = performance.now();
    const error = thrown(() => toTensor(rows, 'rows'));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/^rows: nested arrays of shape \[32768, 32768, 0\] hold 1073741824 rows/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a ragged row is still found, before the data is allocated', () => {
    const error = thrown(() => attn.maskedSoftmax([[1, 2], [3, 4], [5]]));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/^maskedSoftmax: x\[2\] must be an array of 2 elements like its siblings \(ragged nested array\), got 1 elements/);
    const deep = thrown(() => toTensor([[[1], [2]], [[3]]], 'deep'));
    expect(deep?.message).toMatch(/^deep\[1\] must be an array of 2 elements like its siblings/);
    expect(
      toTensor([
        [1, 2],
        [3, 4],
      ]),
    ).toEqual({ data: Float32Array.of(1, 2, 3, 4), shape: [2, 2] });
  });
});

describe('a typed array whose buffer was transferred', () => {
  const x = [
    [1, 2],
    [3, 4],
  ];
  it.each([
    ['x itself', () => attn.maskedSoftmax(detached(Float32Array, [1, 2])), /^maskedSoftmax: x is detached/],
    ['x.data, Float32Array', () => attn.maskedSoftmax({ data: detached(Float32Array, [1, 2, 3, 4]), shape: [2, 2] }), /^maskedSoftmax: x\.data is detached/],
    [
      'x.data, Float64Array (converted)',
      () => attn.maskedSoftmax({ data: detached(Float64Array, [1, 2, 3, 4]), shape: [2, 2] }),
      /^maskedSoftmax: x\.data is detached/,
    ],
    ['x.shape', () => attn.maskedSoftmax({ data: Float32Array.of(1, 2, 3, 4), shape: detached(Int32Array, [2, 2]) }), /^maskedSoftmax: x\.shape is detached/],
    [
      'q of attention',
      () => attn.scaledDotProductAttention({ data: detached(Float32Array, [1, 2, 3, 4]), shape: [2, 2] }, x, x),
      /^scaledDotProductAttention: q\.data is detached/,
    ],
    [
      'options.out',
      () => attn.scaledDotProductAttention(x, x, x, { out: detached(Float32Array, [0, 0, 0, 0]) }),
      /^scaledDotProductAttention: out is detached/,
    ],
    [
      'a bool attnMask',
      () => attn.maskedSoftmax(x, { attnMask: { data: detached(Uint8Array, [1, 1, 1, 1]), shape: [2, 2] } }),
      /^maskedSoftmax: attnMask\.data is detached/,
    ],
    [
      'a float attnMask',
      () => attn.maskedSoftmax(x, { attnMask: { data: detached(Float64Array, [0, 0, 0, 0]), shape: [2, 2] } }),
      /^maskedSoftmax: attnMask\.data is detached/,
    ],
    [
      'validLens',
      () => attn.scaledDotProductAttention([x], [x], [x], { validLens: detached(Int32Array, [1]) }),
      /^scaledDotProductAttention: validLens is detached/,
    ],
    ['alibi slopes', () => attn.scaledDotProductAttention(x, x, x, { alibi: detached(Float32Array, [0.5]) }), /^scaledDotProductAttention: alibi is detached/],
    ["a layer's input", () => attn.selfAttention({ dIn: 2 }).forward(detached(Float32Array, [1, 2])), /^selfAttention\.forward: x is detached/],
    ['toTensor', () => toTensor(detached(Uint8Array, [1]), 'bytes', Uint8Array), /^bytes is detached/],
  ])('%s is a TypeError naming the argument "... is detached"', (label, call, message) => {
    const error = thrown(call);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/Cannot perform/);
  });

  it("on the worker pool too: a remote layer's input and a pooled call name it, no DataCloneError", async () => {
    const pool = await loadAttention({ threads: 1, inlineBelow: 0 });
    try {
      const layer = await pool.selfAttention({ dIn: 2 });
      await expect(layer.forward({ data: detached(Float32Array, [1, 2]), shape: [1, 2] })).rejects.toThrow(/^selfAttention\.forward: x\.data is detached/);
      await expect(layer.setParameters({ wv: detached(Float32Array, [1, 2, 3, 4]) })).rejects.toThrow(/^selfAttention\.setParameters: wv is detached/);
      await expect(pool.maskedSoftmax(detached(Float32Array, [1, 2]))).rejects.toThrow(/^maskedSoftmax: x is detached/);
      // In a remote layer's options, beside its tensor argument.
      const x = [
        [1, 2],
        [3, 4],
      ];
      await expect(layer.forward(x, { validLens: detached(Int32Array, [1]) })).rejects.toThrow(/^selfAttention\.forward: validLens is detached/);
    } finally {
      pool.dispose();
    }
  });

  it('an empty typed array that was never transferred is no detached one', () => {
    expect(toTensor(new Float32Array(0), 'empty')).toEqual({ data: new Float32Array(0), shape: [0] });
    expect(attn.maskedSoftmax([[0, 0]]).data).toEqual(Float32Array.of(0.5, 0.5)); // and the module still computes
  });
});
