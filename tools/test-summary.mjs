// Summarises the reports of tools/test.sh (test-results/): one line per suite, the Vitest suites also
// split by wasm build, then ONE plain closing line `N passed, N failed` over everything.
// Reports: GoogleTest's XML (native, asan: one process per binary), Vitest JSON (types, node,
// browser, e2e, embed, timed).
// Exit status 1 when a test failed, a suite could not run (its report is missing or it exited
// non-zero without a failed test) or a suite ran no test.
// Usage: node tools/test-summary.mjs <results-dir> [suites: native,asan,types,node,browser,e2e,embed]
import fs from 'node:fs';
import path from 'node:path';
import { gtestCounts, vitestCounts } from './test-report.mjs';

const [dir, only = 'native,asan,types,node,browser,e2e,embed'] = process.argv.slice(2);
const wanted = new Set(only.split(','));
const SUITES = [
  { name: 'native-simd', group: 'native', kind: 'gtest' },
  { name: 'native-scalar', group: 'native', kind: 'gtest' },
  { name: 'asan-simd', group: 'asan', kind: 'gtest' },
  { name: 'asan-scalar', group: 'asan', kind: 'gtest' },
  { name: 'vitest-types', group: 'types', kind: 'vitest' },
  { name: 'vitest-node', group: 'node', kind: 'vitest' },
  { name: 'vitest-browser', group: 'browser', kind: 'vitest' },
  { name: 'vitest-e2e', group: 'e2e', kind: 'vitest' },
  { name: 'vitest-embed', group: 'embed', kind: 'vitest' },
  { name: 'vitest-timed', group: ['e2e', 'embed'], kind: 'vitest' }, // runs with either
];

// The failed tests listed under a suite's line (CI keeps only the tail of a long log), at most.
const LISTED_FAILURES = 20;
const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);

let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
const lines = [];
for (const suite of SUITES) {
  if (![suite.group].flat().some((group) => wanted.has(group))) continue;
  const exit = Number((read(path.join(dir, `${suite.name}.status`)) ?? '1').trim());
  const reader = {
    gtest: { file: `${suite.name}.gtest.xml`, count: gtestCounts },
    vitest: { file: `${suite.name}.json`, count: (text) => vitestCounts(JSON.parse(text)) },
  }[suite.kind];
  const report = read(path.join(dir, reader.file));
  let counts;
  try {
    counts = report === null ? null : reader.count(report);
  } catch (e) {
    counts = null;
    lines.push(`${suite.name}: unreadable report (${e.message})`);
  }
  if (counts === null) {
    // No report: the build or the runner failed before any test; count the suite as one failure.
    lines.push(`${suite.name}: DID NOT RUN (exit ${exit}): counted as 1 failed`);
    failed++;
    broken = true;
    continue;
  }
  let note = '';
  const total = counts.passed + counts.failed;
  if (total === 0) {
    note = '  <- ran no test';
    broken = true;
  } else if (exit !== 0 && counts.failed === 0) {
    note = `  <- exited ${exit} without a failed test: counted as 1 failed`;
    counts.failed = 1;
  }
  lines.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${note}`);
  // The split by wasm build, for suites that run per build (the e2e suite does not).
  const builds = Object.entries(counts.byBuild ?? {});
  if (builds.some(([build]) => build !== 'both/none')) {
    for (const [build, c] of builds) lines.push(`    ${build}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  }
  for (const e of counts.errors ?? []) lines.push(`    error: ${e}`);
  for (const f of counts.failures.slice(0, LISTED_FAILURES)) lines.push(`    failed: ${f}`);
  if (counts.failures.length > LISTED_FAILURES) lines.push(`    ... and ${counts.failures.length - LISTED_FAILURES} more failed (see the log above)`);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
}
const closing = `${passed} passed, ${failed} failed`;
lines.push(`total: ${closing}, ${skipped} skipped`);
lines.push(closing);
const text = lines.join('\n') + '\n';
fs.writeFileSync(path.join(dir, 'summary.txt'), text);
process.stdout.write(text);
process.exit(failed > 0 || broken ? 1 : 0);
