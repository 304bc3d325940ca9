// scaledDotProductAttention(..., { out }): the caller's Float32Array receives the output and comes
// back as result.output.data, on one thread and on the pool; anything else is refused by name, and
// a call that fails writes nothing into it.
import { describe, expect, it } from 'vitest';
import { BACKENDS, backendWithPool } from '../support/backends.js';
import { randomTensor, sdpaProblem, seededRandom } from '../support/numeric.js';

// The fused kernels' edge problem (numeric.js) and the floats of its output (B, H, Tq, dv).
function problem(seed) {
  const { q, k, v, options } = sdpaProblem(seed);
  const [B, H, Tq] = q.shape;
  return { q, k, v, options, outFloats: B * H * Tq * v.shape[3] };
}

const SENTINEL = 12345.5; // what out holds before a call that must not write it
const filledOut = (n) => new Float32Array(n).fill(SENTINEL);

describe.each(BACKENDS)('options.out ($backend)', (build) => {
  const apis = backendWithPool(build);

  it('writes the output into out and returns out itself, bit for bit the output of a call without it', async () => {
    const { q, k, v, options, outFloats } = problem(1);
    const fresh = apis.attn.scaledDotProductAttention(q, k, v, { ...options, returnLse: true, returnWeights: true });
    for (const [label, api] of [
      ['one thread', apis.attn],
      ['pool', apis.parallel],
    ]) {
      const out = filledOut(outFloats);
      const given = await api.scaledDotProductAttention(q, k, v, { ...options, returnLse: true, returnWeights: true, out });
      expect(given.output.data, label).toBe(out);
      expect(given.output.shape, label).toEqual(fresh.output.shape);
      expect(Array.from(out), label).toEqual(Array.from(fresh.output.data));
      // Only the output goes into out: the other results are fresh arrays as before.
      expect(Array.from(given.lse.data), label).toEqual(Array.from(fresh.lse.data));
      expect(Array.from(given.weights.data), label).toEqual(Array.from(fresh.weights.data));
    }
  });

  it("may be one of the inputs' own data: q is copied in before the output is written", () => {
    const rand = seededRandom(2);
    const shape = [1, 2, 9, 8]; // d = dv, so the output has q's size
    const [q, k, v] = [randomTensor(rand, shape), randomTensor(rand, shape), randomTensor(rand, shape)];
    const expected = apis.attn.scaledDotProductAttention(q, k, v).output.data;
    const result = apis.attn.scaledDotProductAttention(q, k, v, { out: q.data });
    expect(result.output.data).toBe(q.data);
    expect(Array.from(q.data)).toEqual(Array.from(expected));
  });

  it("refuses anything but a Float32Array of the output's size, naming out and the shape, and keeps working", () => {
    const { q, k, v, options, outFloats } = problem(3);
    const shape = '[2, 4, 70, 8]';
    const typeCases = [
      [new Float64Array(outFloats), 'Float64Array'],
      [Array.from({ length: outFloats }, () => 0), 'an array'],
      [null, 'null'],
      [outFloats, 'number'],
      [new Proxy(new Float32Array(outFloats), {}), 'object'], // passes instanceof, has no typed array slots
      [{ length: outFloats, 0: 0 }, 'object'],
    ];
    for (const [out, given] of typeCases) {
      expect(() => apis.attn.scaledDotProductAttention(q, k, v, { ...options, out }), given).toThrow(
        new TypeError(`scaledDotProductAttention: out must be a Float32Array of ${outFloats} floats for the output (B, H, Tq, dv) ${shape}, got ${given}`),
      );
    }
    const detached = new Float32Array(outFloats);
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    const lengthCases = [
      [new Float32Array(outFloats - 1), outFloats - 1],
      [new Float32Array(outFloats + 4).subarray(1), outFloats + 3],
    ];
    for (const [out, length] of lengthCases) {
      expect(() => apis.attn.scaledDotProductAttention(q, k, v, { ...options, out })).toThrow(
        new RangeError(`scaledDotProductAttention: out must hold ${outFloats} floats for the output (B, H, Tq, dv) ${shape}, got ${length}`),
      );
    }
    expect(() => apis.attn.scaledDotProductAttention(q, k, v, { ...options, out: detached })).toThrow(
      new TypeError('scaledDotProductAttention: out is detached: its buffer was transferred (postMessage or structuredClone with transfer) and holds no data'),
    );
    // A Float32Array subclass with a lying length and a set() of its own is written by its slots.
    class Liar extends Float32Array {
      get length() {
        return 1;
      }
      set() {
        throw new Error('our own set was called');
      }
    }
    const liar = new Liar(outFloats);
    expect(apis.attn.scaledDotProductAttention(q, k, v, { ...options, out: liar }).output.data).toBe(liar);
    expect(Array.from(new Float32Array(liar.buffer))).toEqual(Array.from(apis.attn.scaledDotProductAttention(q, k, v, options).output.data));
  });

  it('is never read from an inherited property (a polluted Object.prototype)', () => {
    const { q, k, v, options, outFloats } = problem(4);
    const planted = filledOut(outFloats);
    Object.prototype.out = planted;
    try {
      const result = apis.attn.scaledDotProductAttention(q, k, v, options);
      expect(result.output.data).not.toBe(planted);
      expect(planted.every((x) => x === SENTINEL)).toBe(true);
    } finally {
      delete Object.prototype.out;
    }
  });

  it('is left untouched by a call that fails: a NaN input, or an intermediate that overflows float32', async () => {
    const { q, k, v, options, outFloats } = problem(5);
    const nanK = { data: k.data.slice(), shape: k.shape };
    nanK.data[17] = NaN;
    // q k^T of two 1e20 vectors is 1e40 > float32's 3.4e38: the output comes out NaN, a RangeError
    // (without the problem's softcap, which would bound the scores).
    const huge = (t) => ({ data: t.data.map(() => 1e20), shape: t.shape });
    const uncapped = { ...options, softcap: 0 };
    for (const [label, api] of [
      ['one thread', apis.attn],
      ['pool', apis.parallel],
    ]) {
      const out = filledOut(outFloats);
      await expect(
        Promise.resolve().then(() => api.scaledDotProductAttention(q, nanK, v, { ...options, out })),
        label,
      ).rejects.toThrow(/k/);
      await expect(
        Promise.resolve().then(() => api.scaledDotProductAttention(huge(q), huge(k), v, { ...uncapped, out })),
        label,
      ).rejects.toThrow(RangeError);
      expect(
        out.every((x) => x === SENTINEL),
        label,
      ).toBe(true);
      // And the module still answers.
      const after = await api.scaledDotProductAttention(q, k, v, { ...options, out });
      expect(after.output.data, label).toBe(out);
    }
  });

  it('refuses an out detached while a pooled call waited for its workers, and writes nothing', async () => {
    const { q, k, v, options, outFloats } = problem(6);
    const out = new Float32Array(outFloats);
    const pending = apis.parallel.scaledDotProductAttention(q, k, v, { ...options, out });
    structuredClone(out.buffer, { transfer: [out.buffer] }); // the caller gives its buffer away meanwhile
    await expect(pending).rejects.toThrow(
      new RangeError(
        `scaledDotProductAttention: out holds 0 floats now but the output needs ${outFloats} (was its buffer detached or resized during the call?)`,
      ),
    );
    expect((await apis.parallel.scaledDotProductAttention(q, k, v, options)).output.data.length).toBe(outFloats);
  });
});
