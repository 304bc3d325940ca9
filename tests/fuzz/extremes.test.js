// Fuzzing with values whose float32 products overflow (1e30, up to 3e38): q k^T, dO v^T and the
// kernels' running sums can leave float32's range although inputs are finite. Always: a result or
// a TypeError/RangeError (named where a fault was planted), no trap, inputs and wasm memory
// unchanged; and a valid call returns float64's answer or a RangeError saying an intermediate
// overflowed float32 (web/src/boundary/overflow.js), never a silent NaN or Infinity.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../js/support/backends.js';
import { attentionSpec, build, softmaxSpec } from './cases.js';
import { runExtremeCase, runExtremeCaseAgainstFloat64 } from './run.js';
import { fuzzParams, fuzzTimeout } from './settings.js';
import { loadedBuild } from './suite.js';
import { EXTREME_STYLES } from './values.js';

const style = fc.constantFrom(...EXTREME_STYLES);
const extreme = fc.tuple(fc.oneof(attentionSpec(), softmaxSpec()), style, style, style).map(([s, a, b, c]) => ({
  ...s,
  ...(s.family === 'softmax'
    ? { x: { ...s.x, style: a }, dWeights: { ...s.dWeights, style: b } }
    : { q: { ...s.q, style: a }, k: { ...s.k, style: b }, v: { ...s.v, style: c }, dOutput: { ...s.dOutput, style: a }, params: { ...s.params, style: b } }),
}));

describe.each(BACKENDS)('fuzz: values beyond float32 products ($backend)', (which) => {
  const b = loadedBuild(which);

  it(
    'never trap, change an input or wasm memory, and name the argument at fault',
    () => {
      fc.assert(
        fc.property(extreme, (s) => void runExtremeCase(b.attn, b.module, build(s))),
        fuzzParams(300),
      );
    },
    fuzzTimeout(300),
  );

  // Inputs are finite, so a NaN or Infinity can only come from an overflowed intermediate: the
  // call must then say so (overflow.js) rather than return it; otherwise it returns float64's answer.
  it(
    'return the float64 answer or a RangeError naming the overflow, never a silent NaN or Infinity',
    () => {
      const seen = { error: 0, overflow: 0, result: 0 };
      fc.assert(
        fc.property(extreme, (s) => void seen[runExtremeCaseAgainstFloat64(b.attn, b.module, build(s))]++),
        fuzzParams(100),
      );
      expect(seen.result, JSON.stringify(seen)).toBeGreaterThan(0);
    },
    fuzzTimeout(100),
  );
});
