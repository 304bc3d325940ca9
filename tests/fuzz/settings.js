// How much the fuzz suite runs (not a test file). `npm test` runs a fixed seed and the default
// counts below (a few thousand cases over both builds, well under a minute per project);
// `npm run fuzz -- --runs N [--seed S]` (tools/fuzz.mjs) passes FUZZ_RUNS / FUZZ_SEED to
// vitest.config.js, which provides them here as 'fuzz' in Node and in Chromium alike.
import { inject } from 'vitest';

/** The seed of `npm test`: any fixed number; a failure it finds is reproducible from it alone. */
export const DEFAULT_SEED = 20261124;
/**
 * Runs of every property of the suite together at the default counts: the shares the test files
 * give fuzzParams add up to this (per build 500 + 1000 + 400 + 5 x 50 + 300 + 100 + 150 + 200 for
 * rope, 150 for the transformer, plus 70 for loadAttention and 100 + 100 + 20 for the file readers). `--runs N` scales
 * every share by N / DEFAULT_TOTAL.
 */
export const DEFAULT_TOTAL = 6240;

const given = inject('fuzz') ?? {};
export const SEED = Number.isSafeInteger(given.seed) ? given.seed : DEFAULT_SEED;
const total = Number.isSafeInteger(given.runs) && given.runs > 0 ? given.runs : DEFAULT_TOTAL;

/**
 * fast-check parameters for a property whose share of DEFAULT_TOTAL is `runs`: the same seed for
 * every property (each draws its own kind of case), the count scaled to the requested total.
 */
export function fuzzParams(runs) {
  return { seed: SEED, numRuns: Math.max(1, Math.round((runs * total) / DEFAULT_TOTAL)), endOnFailure: false };
}

/** A test's time limit for `runs` (of DEFAULT_TOTAL) runs: long runs need more than Vitest's 30 s. */
export function fuzzTimeout(runs) {
  return Math.max(30_000, fuzzParams(runs).numRuns * 50); // ~3 ms a case on an idle machine, 50 on a loaded one
}
