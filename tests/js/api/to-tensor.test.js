// toTensor as the package exports it ('attention-lab' and the small module figures import): the
// same conversion the API's calls make, plus checks of the two arguments only a user passes.
import { describe, expect, it } from 'vitest';
import { toTensor } from '../../../web/src/index.js';
import { toTensor as direct } from '../../../web/src/to-tensor.js';

describe('toTensor (public)', () => {
  it('is the same function from the package root and from the module figures import', () => {
    expect(toTensor).toBe(direct);
  });

  it('turns nested arrays into a float32 tensor of their shape, and shares data of the wanted type', () => {
    const t = toTensor(
      [
        [1, 2, 3],
        [4, 5, 6.1],
      ],
      'weights',
    );
    expect(t.shape).toEqual([2, 3]);
    expect(t.data).toBeInstanceOf(Float32Array);
    expect(Array.from(t.data)).toEqual([1, 2, 3, 4, 5, Math.fround(6.1)]);
    const data = new Float32Array(4);
    expect(toTensor({ data, shape: [2, 2] }).data).toBe(data);
    expect(toTensor([1, 0, 1], 'mask', Uint8Array).data).toEqual(new Uint8Array([1, 0, 1]));
  });

  it('names the value in its errors: ragged arrays, a shape the data does not fit, no value', () => {
    expect(() => toTensor([[1, 2], [3]], 'weights')).toThrow(RangeError);
    expect(() => toTensor([[1, 2], [3]], 'weights')).toThrow(/weights\[1\]/);
    expect(() => toTensor({ data: [1, 2, 3], shape: [2, 2] }, 'q')).toThrow(/q: data has 3 elements but shape \[2, 2\] needs 4/);
    expect(() => toTensor(undefined)).toThrow(/toTensor: value is required/);
  });

  it('rejects a name that is not a string and an ArrayType that is not a typed array of numbers', () => {
    expect(() => toTensor([1], 42)).toThrow(TypeError);
    expect(() => toTensor([1], 42)).toThrow(/toTensor: name must be a string/);
    for (const bad of [Array, Object, BigInt64Array, DataView, () => [], 'Float32Array', null]) {
      expect(() => toTensor([1], 'x', bad), String(bad?.name ?? bad)).toThrow(/toTensor: ArrayType must be a typed array constructor/);
    }
  });
});
