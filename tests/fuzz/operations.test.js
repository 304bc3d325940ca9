// Property-based fuzzing of every operation of the Attention API (index.d.ts) on both wasm builds:
// random shapes, masks, options, values and input forms, with at most one fault per call. Each call
// must return the float64 reference's result within float32 rounding, or throw a TypeError or
// RangeError naming the argument at fault; never trap, change an input or leave wasm memory
// changed (tests/fuzz/contract.js). Faults of issue 8's known findings are left out here and run in
// known-findings.test.js. Replay a failure with FUZZ_SEED (npm run fuzz -- --seed S), or copy the
// printed case into regressions.test.js.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModule } from '../../web/src/loader.js';
import { BACKENDS, loadBackend } from '../js/backends.js';
import { attentionSpec, build, softmaxSpec } from './cases.js';
import { runCase } from './run.js';
import { fuzzParams } from './settings.js';

describe.each(BACKENDS)('fuzz: every operation ($backend)', (which) => {
  let attn;
  let module;
  beforeAll(async () => {
    attn = await loadBackend(which);
    ({ module } = await loadModule({ simd: which.simd }));
  });

  /** Runs the property; then checks that both outcomes were common (a suite that only ever sees errors proves nothing). */
  function fuzz(spec, runs) {
    const seen = { error: 0, result: 0 };
    fc.assert(fc.property(spec, (s) => { seen[runCase(attn, module, build(s))]++; }), fuzzParams(runs));
    const total = seen.error + seen.result;
    expect(seen.result / total, `results among ${total} calls`).toBeGreaterThan(0.4);
    expect(seen.error / total, `named errors among ${total} calls`).toBeGreaterThan(0.1);
  }

  it('maskedSoftmax and its backward match float64 or name the argument at fault', () => {
    fuzz(softmaxSpec(), 500);
  });

  it('scaledDotProductAttention, attention (every scoring), additiveAttention and their backwards match float64 or name the argument at fault', () => {
    fuzz(attentionSpec(), 1000);
  });
});
