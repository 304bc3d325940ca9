// Property-based fuzzing of the module-level exports: loadAttention's options (with and without
// threads) and simdSupported. Bad options reject with a TypeError or RangeError naming the option,
// before any worker is started; valid ones give the cached API of the build asked for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadAttention, simdSupported } from '../../web/src/index.js';
import { fuzzParams, fuzzTimeout } from './settings.js';

const junk = fc.constantFrom('yes', 1, 0, null, {}, [], NaN, -1, 1.5, 65, Infinity, 2 ** 53, () => {}, 1n);

/** One bad option (and the names its error may give) on top of a valid { simd }. */
const badOptions = fc.oneof(
  fc.record({ key: fc.constantFrom('simd'), value: junk.filter((x) => typeof x !== 'boolean') }),
  fc.record({ key: fc.constantFrom('wasmBinary'), value: junk.filter((x) => !(x instanceof ArrayBuffer)) }),
  fc.record({ key: fc.constantFrom('threads'), value: junk.filter((x) => !(Number.isInteger(x) && x >= 1 && x <= 64)) }),
  fc.record({ key: fc.constantFrom('simdd', 'thread', 'wasmURL', 'binary', 'scale'), value: junk }),
  fc.record({ key: fc.constantFrom('inlineBelow'), value: fc.constantFrom('1', null, NaN, -1, {}) }),
);

describe('fuzz: loadAttention and simdSupported', () => {
  it('simdSupported answers a boolean, the same every time', () => {
    expect(typeof simdSupported()).toBe('boolean');
    expect(simdSupported()).toBe(simdSupported());
  });

  it(
    'loadAttention rejects a bad option with a TypeError or RangeError naming it',
    async () => {
      await fc.assert(
        fc.asyncProperty(badOptions, fc.boolean(), async ({ key, value }, simd) => {
          const options = { simd, [key]: value };
          if (key === 'inlineBelow') options.threads = 1; // inlineBelow is checked with threads only
          let error;
          try {
            const api = await loadAttention(options);
            if (api.dispose) api.dispose();
          } catch (e) {
            error = e;
          }
          expect(error, `loadAttention(${String(key)}: ${String(value)}) resolved`).toBeDefined();
          expect(error instanceof TypeError || error instanceof RangeError, String(error)).toBe(true);
          expect(error.message).toMatch(new RegExp(`\\b${key}\\b`));
        }),
        fuzzParams(60),
      );
    },
    fuzzTimeout(60),
  );

  it('loadAttention with valid options gives a working API of the build asked for', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), async (simd) => {
        const a = await loadAttention({ simd });
        expect(a.backend).toBe(simd ? 'wasm-simd' : 'wasm-scalar');
        expect(a.maskedSoftmax([0, 0]).data).toEqual(new Float32Array([0.5, 0.5]));
      }),
      fuzzParams(10),
    );
  });
});
