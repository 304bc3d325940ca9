// Property-based fuzzing of every operation of the Attention API (index.d.ts) on both wasm builds:
// random shapes, masks, options, values and input forms, with at most one fault per call. Each call
// must return the float64 reference's result within float32 rounding, or throw a TypeError or
// RangeError naming the argument at fault; never trap, change an input or leave wasm memory
// changed (tests/fuzz/contract.js). Faults of issue 8's known findings are left out here and run in
// known-findings.test.js. Replay a failure with FUZZ_SEED (npm run fuzz -- --seed S), or copy the
// printed case into regressions.test.js.
import { describe, it } from 'vitest';
import { BACKENDS } from '../js/support/backends.js';
import { attentionSpec, build, softmaxSpec } from './cases.js';
import { runCase } from './run.js';
import { fuzzTimeout } from './settings.js';
import { assertWithOutcomes, loadedBuild } from './suite.js';

describe.each(BACKENDS)('fuzz: every operation ($backend)', (which) => {
  const b = loadedBuild(which);

  it(
    'maskedSoftmax and its backward match float64 or name the argument at fault',
    () => {
      assertWithOutcomes(softmaxSpec(), (s) => runCase(b.attn, b.module, build(s)), 500);
    },
    fuzzTimeout(500),
  );

  it(
    'scaledDotProductAttention, attention (every scoring) and their backwards match float64 or name the argument at fault',
    () => {
      assertWithOutcomes(attentionSpec(), (s) => runCase(b.attn, b.module, build(s)), 1000);
    },
    fuzzTimeout(1000),
  );
});
