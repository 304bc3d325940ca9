// What every fuzz test file shares (not a test file): the build under test, loaded once per
// describe block, and a property run that also checks both outcomes were common.
import fc from 'fast-check';
import { beforeAll, expect } from 'vitest';
import { loadModule } from '../../web/src/boundary/loader.js';
import { loadBackend } from '../js/support/backends.js';
import { fuzzParams } from './settings.js';

/** { attn, module } of build `which` (BACKENDS), filled in before the block's tests run. */
export function loadedBuild(which) {
  const build = {};
  beforeAll(async () => {
    build.attn = await loadBackend(which);
    // The module instance the API object uses (cached per build), for the wasm memory checks.
    ({ module: build.module } = await loadModule({ simd: which.simd }));
  });
  return build;
}

/**
 * Asserts `runOne(case)` (returning 'error' or 'result') over `runs` cases of `arbitrary`, then
 * that both outcomes were common: a suite that only ever sees errors, or never does, proves little.
 */
export function assertWithOutcomes(arbitrary, runOne, runs) {
  const seen = { error: 0, result: 0 };
  fc.assert(
    fc.property(arbitrary, (c) => {
      seen[runOne(c)]++;
    }),
    fuzzParams(runs),
  );
  const total = seen.error + seen.result;
  expect(seen.result / total, `results among ${total} calls`).toBeGreaterThan(0.4);
  expect(seen.error / total, `named errors among ${total} calls`).toBeGreaterThan(0.1);
}
