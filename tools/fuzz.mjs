#!/usr/bin/env node
// Long fuzz runs: `npm run fuzz -- [--runs N] [--seed S] [--project node|browser]`.
// Runs tests/fuzz with about N property runs in total (default 50000; `npm test` runs 6090 with a
// fixed seed), from seed S or a random one, printed first so any failure can be replayed with
// `npm run fuzz -- --seed S --runs N`. fast-check prints each failing case whole; add it to
// tests/fuzz/regressions.test.js.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const args = process.argv.slice(2);
const value = (flag, fallback) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : fallback;
};
const known = new Set(['--runs', '--seed', '--project']);
for (let i = 0; i < args.length; i += 2) {
  if (!known.has(args[i]) || args[i + 1] === undefined) {
    console.error(`fuzz: usage: npm run fuzz -- [--runs N] [--seed S] [--project node|browser] (got ${args.join(' ')})`);
    process.exit(2);
  }
}
const runs = Number(value('--runs', 50000));
const seed = Number(value('--seed', randomInt(2 ** 31)));
const project = value('--project', 'node');
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed)) {
  console.error('fuzz: --runs and --seed must be integers');
  process.exit(2);
}
console.log(`fuzz: seed ${seed}, ${runs} runs, project ${project} (replay: npm run fuzz -- --seed ${seed} --runs ${runs})`);
const started = Date.now();
const result = spawnSync('npx', ['--no-install', 'vitest', 'run', '--project', project, 'tests/fuzz/'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed) },
});
console.log(`fuzz: seed ${seed}, ${runs} runs, ${((Date.now() - started) / 1000).toFixed(0)} s, ${result.status === 0 ? 'no failure' : 'FAILED'}`);
process.exit(result.status ?? 1);
