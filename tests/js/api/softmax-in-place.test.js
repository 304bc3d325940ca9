// maskedSoftmax and its backward write their result over an input in wasm memory (softmax.js) and
// check every input for NaN and infinities eight elements at a time (validate.js). These tests pin
// what that must not change: the caller's arrays stay as they were, the results equal a float64
// reference under every kind of mask, and a non-finite value anywhere, inside a block of eight or
// in the tail, is reported at its own index (-Infinity is a valid score, so it passes in x only).
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { maskedSoftmaxBackwardReference, maskedSoftmaxReference } from '../../reference/index.js';

/** The float64 references (tests/reference) as tensors for expectClose. */
const softmaxReference = (x, options) => ({ data: maskedSoftmaxReference(x, options).y, shape: x.shape });
const backwardReference = (y, dy, options) => ({ data: maskedSoftmaxBackwardReference(y, dy, options).dx, shape: y.shape });

const [B, H, Tq, Tk] = [2, 3, 5, 13]; // Tk: three vectors of 4 plus a tail, one of 8 plus a tail

const rand = seededRandom(2024);
const boolMask = { data: Uint8Array.from({ length: B * H * Tq * Tk }, () => (rand() > -0.6 ? 1 : 0)), shape: [B, H, Tq, Tk] };
const MASKS = {
  'no mask': {},
  causal: { causal: true },
  'validLens with an empty batch': { validLens: [0, 9] },
  'a boolean attnMask': { attnMask: boolMask },
  'validLens and maskFill (d2l)': { validLens: [3, 13], maskFill: -1e6 },
};

describe.each(BACKENDS)('$backend: masked softmax in place', (which) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(which);
  });

  // float32 exp (the SIMD one within ~1 ulp) and a float32 sum of 13 terms: 1e-6 of weights <= 1.
  it.each(Object.entries(MASKS))('maskedSoftmax with %s matches float64 and leaves x as it was', (_, options) => {
    const x = randomTensor(seededRandom(7), [B, H, Tq, Tk], 4);
    const before = x.data.slice();
    const y = attn.maskedSoftmax(x, options);
    expect(x.data).toEqual(before);
    expectClose(y, softmaxReference(x, options), { rtol: 1e-5, atol: 1e-6, label: 'weights' });
  });

  // dy in [-1, 1), weights <= 1: dx is O(1) and float32 rounding of the dot over 13 keys is ~1e-6.
  it.each(Object.entries(MASKS))('maskedSoftmaxBackward with %s matches float64 and leaves its inputs as they were', (_, options) => {
    const x = randomTensor(seededRandom(8), [B, H, Tq, Tk], 4);
    const y = attn.maskedSoftmax(x, options);
    const dy = randomTensor(seededRandom(9), [B, H, Tq, Tk]);
    const [yBefore, dyBefore] = [y.data.slice(), dy.data.slice()];
    const dx = attn.maskedSoftmaxBackward(y, dy, options);
    expect(y.data).toEqual(yBefore);
    expect(dy.data).toEqual(dyBefore);
    expectClose(dx, backwardReference(y, dy, options), { rtol: 1e-5, atol: 2e-6, label: 'dx' });
  });

  it('finds a NaN or an Infinity at every position of rows of 1 to 19 elements', () => {
    for (let n = 1; n <= 19; n++)
      for (let at = 0; at < n; at++)
        for (const bad of [NaN, Infinity]) {
          const x = new Float32Array(n).fill(0.5);
          x[at] = bad;
          expect(() => attn.maskedSoftmax(x)).toThrow(new RegExp(`got ${bad} at flat index ${at} of shape \\[${n}\\]`));
        }
  });

  it('lets -Infinity through in x but not in weights or dWeights, and takes the largest finite floats', () => {
    const x = new Float32Array(17).fill(3.4e38); // a float64 sum of 8 of them is still finite
    x[9] = -Infinity;
    const y = attn.maskedSoftmax(x);
    expect(y.data[9]).toBe(0);
    expect(() => attn.maskedSoftmaxBackward(x, y)).toThrow(/weights must hold finite numbers, got -Infinity at flat index 9/);
    expect(() => attn.maskedSoftmaxBackward(y, x)).toThrow(/dWeights must hold finite numbers, got -Infinity at flat index 9/);
  });
});
