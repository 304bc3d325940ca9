// Property-based fuzzing of the ParallelAttention API (loadAttention({ threads })): the same cases
// as operations.test.js, sent to a pool of 2 workers with inlineBelow: 0 (every call crosses to a
// worker, split by heads and query blocks where the API splits), must give the float64 reference's
// result or the same named error, and leave the caller's inputs unchanged. Fewer runs: each call
// is a round trip to a worker.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../web/src/index.js';
import { BACKENDS } from '../js/support/backends.js';
import { attentionSpec, build, softmaxSpec } from './cases.js';
import { runCaseOnPool } from './run.js';
import { fuzzParams, fuzzTimeout } from './settings.js';
import { loadedBuild } from './suite.js';

describe.each(BACKENDS)('fuzz: the worker pool ($backend)', (which) => {
  const b = loadedBuild(which);
  let pool;
  beforeAll(async () => {
    pool = await loadAttention({ simd: which.simd, threads: 2, inlineBelow: 0 });
  });
  afterAll(() => pool?.dispose());

  it(
    'every operation on a pool of 2 workers matches float64 or names the argument at fault',
    async () => {
      const seen = { error: 0, result: 0 };
      await fc.assert(
        fc.asyncProperty(fc.oneof(attentionSpec(), softmaxSpec()), async (s) => {
          seen[await runCaseOnPool(pool, b.attn, b.module, build(s))]++;
        }),
        fuzzParams(150),
      );
      expect(seen.result).toBeGreaterThan(0);
      expect(seen.error).toBeGreaterThan(0);
    },
    fuzzTimeout(150),
  );
});
