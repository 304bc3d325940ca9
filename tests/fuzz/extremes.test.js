// Fuzzing with values whose float32 products overflow (1e30, up to 3e38): q k^T, dO v^T and the
// kernels' running sums can leave float32's range although inputs are finite. Always: a result or
// a TypeError/RangeError (named where a fault was planted), no trap, inputs and wasm memory
// unchanged. Open bug (regressions.test.js): such calls return NaN or Infinity silently where
// float64 has a finite answer; the no-NaN property is it.fails until the kernels report it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../js/backends.js';
import { attentionSpec, build, softmaxSpec } from './cases.js';
import { runExtremeCase } from './run.js';
import { fuzzParams, fuzzTimeout } from './settings.js';
import { loadedBuild } from './suite.js';
import { EXTREME_STYLES } from './values.js';

const style = fc.constantFrom(...EXTREME_STYLES);
const extreme = fc
  .tuple(fc.oneof(attentionSpec(), softmaxSpec()), style, style, style)
  .map(([s, a, b, c]) => ({
    ...s,
    ...(s.family === 'softmax'
      ? { x: { ...s.x, style: a }, gradWeights: { ...s.gradWeights, style: b } }
      : { q: { ...s.q, style: a }, k: { ...s.k, style: b }, v: { ...s.v, style: c }, gradOutput: { ...s.gradOutput, style: a }, params: { ...s.params, style: b } }),
  }));

describe.each(BACKENDS)('fuzz: values beyond float32 products ($backend)', (which) => {
  const b = loadedBuild(which);

  it('never trap, change an input or wasm memory, and name the argument at fault', () => {
    fc.assert(fc.property(extreme, (s) => void runExtremeCase(b.attn, b.module, build(s))), fuzzParams(300));
  }, fuzzTimeout(300));

  // Open bug (see regressions.test.js): flip to `it` once overflow is reported or avoided.
  it.fails('return no NaN or Infinity where float64 has a finite answer', () => {
    fc.assert(
      fc.property(extreme, (s) => {
        for (const tensor of runExtremeCase(b.attn, b.module, build(s))) {
          expect(tensor.data.every((x) => Number.isFinite(x) || x === -Infinity)).toBe(true); // -Infinity: lse of an empty row
        }
      }),
      fuzzParams(100),
    );
  }, fuzzTimeout(100));
});
