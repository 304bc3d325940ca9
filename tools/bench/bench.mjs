// npm run bench: attention-lab against its peers, and its training step against PyTorch and tfjs.
// Usage: node tools/bench/bench.mjs [--quick] [--only TEXT] [--out DIR | --no-write]
//   --quick    T = 512 only, smaller shapes, fewer samples and training steps; writes nothing unless --out
//   --only     only the tables whose title contains TEXT (--only "issue 12": the sliding window and
//              the decode steps; --only training: the training table alone)
//   --out DIR  where results.md and chart.svg go (default bench/)
//   --note TEXT  a sentence for results.md about the run (e.g. what else the machine ran)
// Per table: build every contender, check each one's output against attention-lab's wasm-simd (max
// |diff|; a contender that disagrees is not timed), warm up, then time calls in alternating rounds
// (web/measure/timing.js) and print median ms, the rate, its efficiency (the rate over the highest
// reading of the machine's wasm SIMD ceiling so far, read in this process before every table:
// lib/ceiling.mjs) and how many times faster ours is. Then the training table (lib/training.mjs).
// Node 20 is re-run with --experimental-wasm-relaxed-simd, so the relaxed build is measured too.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttention, relaxedSimdSupported } from '../../web/src/index.js';
import { median, timeAlternating } from '../../web/measure/timing.js';
import { bertConfigs } from './lib/bert-configs.mjs';
import { ceilingOf, ceilingText, higherCeilings, measureCeilings } from './lib/ceiling.mjs';
import { chartSvg } from './lib/chart-svg.mjs';
import { coreClock, coreMedianMs } from './lib/core-clock.mjs';
import { describeMachine } from './lib/machine.mjs';
import { modernConfigs } from './lib/modern-configs.mjs';
import { opConfigs } from './lib/op-configs.mjs';
import { rerunWithRelaxedSimd } from './lib/relaxed-flag.mjs';
import { TARGET_BUILDS, markdownTable, moduleText, oursOf, targetLines, textTable } from './lib/report.mjs';
import { overheadConfig, sdpaConfigs } from './lib/sdpa-configs.mjs';
import { measureTraining, trainingMarkdown } from './lib/training.mjs';

rerunWithRelaxedSimd();

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const quick = args.includes('--quick');
const only = option('--only');
const wanted = (title) => !only || title.includes(only);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = option('--out') ?? (quick || only || args.includes('--no-write') ? null : path.join(root, 'bench'));
const timing = quick
  ? { minSamples: 2, maxSamples: 5, budgetMs: 300, warmupMs: 100, maxWarmup: 1, slowMs: 1000 }
  : { minSamples: 3, maxSamples: 15, budgetMs: 1000, warmupMs: 300, maxWarmup: 2, slowMs: 2000 };

const loadText = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const machine = {
  cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
  described: describeMachine().text,
  cores: os.cpus().length,
  node: process.version,
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  loadStart: loadText(),
};
/** The commit measured, and whether the C++ or the JS API differed from it (the .wasm is built from the tree). */
function ourVersion() {
  try {
    const git = (...a) => execFileSync('git', ['-C', root, ...a], { encoding: 'utf8' }).trim();
    const changed = git('status', '--porcelain', '--', 'cpp', 'web/src') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${changed ? ' with uncommitted changes in cpp/ or web/src/' : ''}`;
  } catch {
    return 'not a git checkout';
  }
}
machine.ours = ourVersion();
const versionOf = (pkg) => JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;
const peers = ['onnxruntime-web', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm'].map((p) => `${p} ${versionOf(p)}`).join(', ');

// Read again before every table; efficiencies are over the highest reading (higherCeilings).
let ceilings = await measureCeilings();
const [simd, scalar] = [await loadAttention({ simd: true }), await loadAttention({ simd: false })];
const relaxed = relaxedSimdSupported() ? await loadAttention({ simd: 'relaxed' }) : null;
// The opt-in pool of workers, as a line of its own next to the 2-thread peer (the full run only).
const pool = quick ? null : await loadAttention({ simd: true, threads: 2 }).catch((error) => console.log(`no parallel API: ${error.message}`));
const modules = [simd, ...(relaxed ? [relaxed] : []), scalar];
for (const attn of modules) {
  await coreClock(attn); // our rows also say how much of a call is the core's
  warmUp(attn);
}
const sdpaModules = [simd, ...(relaxed ? [relaxed] : []), ...(pool ? [pool] : []), scalar];
console.log(`attention-lab bench, ${quick ? 'quick' : 'full'} run: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, ${machine.date}`);
console.log(`peers: ${peers}; ours: ${sdpaModules.map(moduleText).join(', ')}`);
console.log(`attention-lab: ${machine.ours}`);
console.log(`machine: ${machine.described}`);
console.log(`${ceilingText(ceilings)}; "of ceiling" is a row's GFLOP/s over the highest reading so far (the relaxed build's over relaxed_madd's) per thread`);
console.log(`load average at start: ${machine.loadStart} (1, 5, 15 min); ratios within one table are what counts\n`);

/**
 * Calls of the sdpa forward and backward at a small size, until V8 has tiered the kernels up (it does
 * so between calls, docs/toolchain.md): else the first table's few samples would time baseline code.
 */
function warmUp(attn) {
  const shape = [1, 2, 128, 64];
  const x = { data: new Float32Array(2 * 128 * 64).fill(0.5), shape };
  for (let i = 0; i < 40; i++) {
    for (const causal of [false, true]) attn.scaledDotProductAttention(x, x, x, { causal });
    attn.scaledDotProductAttentionBackward(x, x, x, x, { saved: attn.scaledDotProductAttention(x, x, x, { returnLse: true }) });
  }
}

/** Largest |a - b| over lists of arrays; Infinity when the shapes differ or one side has a NaN. */
function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  a.forEach((x, i) => {
    if (x.length !== b[i].length) worst = Infinity;
    else for (let j = 0; j < x.length; j++) worst = Math.max(worst, Math.abs(x[j] - b[i][j]) || (x[j] === b[i][j] ? 0 : Infinity));
  });
  return worst;
}

// float32 results of sums over up to 4096 terms in different orders agree to ~1e-5 of their size;
// 1e-3 of the largest magnitude flags different work (a missing mask, a wrong layout), not rounding.
const TOLERANCE = 1e-3;
const magnitude = (lists) => Math.max(1, ...lists.map((x) => x.reduce((m, v) => Math.max(m, Math.abs(v)), 0)));

async function measure(config) {
  const contenders = await config.build();
  const rows = contenders.map((c) => ({ library: c.library, form: c.form, threads: c.threads, error: c.error }));
  const ready = contenders.map((c, i) => [c, rows[i]]).filter(([c]) => !c.error);
  const reference = await ready[0][0].result();
  const tolerance = TOLERANCE * magnitude(reference);
  for (const [c, row] of ready.slice(1)) {
    try {
      row.diff = maxAbsDiff(await c.result(), reference);
      if (!(row.diff <= tolerance)) row.error = `differs from wasm-simd by ${row.diff.toExponential(2)}`;
    } catch (error) {
      row.error = String(error?.message ?? error).split('\n')[0].slice(0, 160);
    }
  }
  const timed = ready.filter(([, row]) => !row.error);
  const samples = await timeAlternating(timed.map(([c]) => c), timing);
  timed.forEach(([c, row], i) => {
    row.ms = median(samples[i]);
    row.samples = samples[i].length;
    row.rate = config.unit === 'us/call' ? (row.ms * 1000) / config.work : config.work / row.ms / 1e6;
    if (c.coreSamples && config.unit === 'GFLOP/s') row.coreMs = coreMedianMs(c, samples[i].length);
  });
  for (const row of rows) if (!row.error) row.ratio = row.ms / rows[0].ms;
  for (const c of contenders) await c.release?.();
  const workText = config.unit === 'us/call' ? `${config.work} calls per timed sample` : config.unit === 'GB/s' ? `${(config.work / 1e6).toFixed(1)} MB moved per call` : `${(config.work / 1e9).toFixed(3)} GFLOP per call`;
  const m = { ...config, rows, workText };
  setEfficiencies(m, ceilings);
  return m;
}

/** Each GFLOP/s row's rate (and its core's) over the ceiling of its instructions, per thread. */
function setEfficiencies(m, ceilings) {
  if (m.unit !== 'GFLOP/s') return;
  for (const row of m.rows) {
    if (!Number.isFinite(row.rate)) continue;
    row.efficiency = row.rate / (ceilingOf(ceilings, row.form) * row.threads);
    if (Number.isFinite(row.coreMs)) row.coreEfficiency = m.work / row.coreMs / 1e6 / ceilingOf(ceilings, row.form);
  }
}

// BERT-base shapes on the SIMD builds only (the scalar one would take tens of seconds a call).
const simdModules = modules.filter((m) => m.backend !== 'wasm-scalar');
const configs = [
  ...sdpaConfigs(sdpaModules, { sizes: quick ? [512] : [256, 512, 1024], ortThreads: quick ? [1] : [1, 2] }),
  ...bertConfigs(simdModules, { quick }),
  overheadConfig(sdpaModules, { calls: quick ? 500 : 2000 }),
  ...opConfigs(modules, { quick }),
  ...modernConfigs(sdpaModules, simdModules, { quick }),
].filter((c) => wanted(c.title));
const measured = [];
for (const config of configs) {
  if (measured.length > 0) ceilings = higherCeilings(ceilings, await measureCeilings());
  const start = performance.now();
  measured.push(await measure(config));
  console.log(`${textTable(measured.at(-1))}\n  (${((performance.now() - start) / 1000).toFixed(1)} s)\n`);
}

const trainingStart = performance.now();
const training = wanted('training') ? await measureTraining(simdModules, { quick }) : null;
if (training) console.log(`training table: ${((performance.now() - trainingStart) / 1000).toFixed(1)} s`);
ceilings = higherCeilings(ceilings, await measureCeilings());
// The tables above used the highest reading so far; results.md uses the highest of the run.
for (const m of measured) setEfficiencies(m, ceilings);
const trainingLines = training ? trainingMarkdown(training, ceilingOf(ceilings, 'wasm-simd')) : [];
if (training) console.log(`${trainingLines.join('\n')}\n`);
machine.loadEnd = loadText();
machine.minutes = (performance.now() / 60000).toFixed(1);
console.log(`ceiling over the whole run: ${ceilingText(ceilings)}`);
console.log(`load average at end: ${machine.loadEnd}; ${machine.minutes} minutes`);

const targets = targetLines(measured);
if (targets.length) {
  console.log('\npeer targets (ours / peer at its fastest form, same run):');
  for (const t of targets) console.log(`  ${t.config}, ${t.build}: ${t.ratio.toFixed(2)}x ${t.peer} (target >= ${t.target}x: ${t.met ? 'met' : 'NOT met'})`);
}
const efficiencies = efficiencyLines(measured);
if (efficiencies.length) {
  console.log('\nefficiency targets (ours over the ceiling of its instructions; in brackets the time inside the core alone):');
  for (const e of efficiencies) console.log(`  ${e.config}, ${e.build}: ${percent(e.efficiency)} (core ${percent(e.core)}) (target >= ${100 * e.target}%: ${e.met ? 'met' : 'NOT met'})`);
}

/** The efficiency targets: forward >= 0.75 of the ceiling at T >= 512, forward+backward >= 0.65. */
function efficiencyLines(measured) {
  const targets = { forward: 0.75, forwardBackward: 0.65 };
  return measured
    .filter((m) => targets[m.passKey] && m.T >= 512)
    .flatMap((m) => TARGET_BUILDS.map((build) => ({ m, build, ours: oursOf(m.rows, build) })))
    .filter(({ ours }) => ours && Number.isFinite(ours.efficiency))
    .map(({ m, build, ours }) => ({
      config: m.title,
      build,
      efficiency: ours.efficiency,
      core: ours.coreEfficiency,
      target: targets[m.passKey],
      met: ours.efficiency >= targets[m.passKey],
    }));
}

// Cut to a tenth of a percent, never rounded up: a row shown at its target meets it.
function percent(x) {
  return Number.isFinite(x) ? `${(Math.floor(1000 * x) / 10).toFixed(1)}%` : '-';
}

if (outDir) {
  mkdirSync(outDir, { recursive: true });
  const subtitle = `B=1 H=8 d=64; ${machine.cpu} (${machine.cores} cores, load average ${machine.loadStart.split(' ')[0]} to ${machine.loadEnd.split(' ')[0]}), node ${machine.node}, ${machine.date.slice(0, 10)}`;
  writeFileSync(path.join(outDir, 'chart.svg'), chartSvg(measured, { subtitle }));
  writeFileSync(path.join(outDir, 'results.md'), resultsMarkdown());
  console.log(`\nwrote ${path.relative(process.cwd(), path.join(outDir, 'results.md'))} and chart.svg`);
}

function resultsMarkdown() {
  const lines = [
    '# attention-lab against its peers',
    '',
    `Measured by \`npm run bench${quick ? ' -- --quick' : ''}\` (tools/bench/bench.mjs) on ${machine.date}, ${machine.ours}, in ${machine.minutes} minutes.`,
    `Machine: ${machine.described}; Node ${machine.node}. Load average ${machine.loadStart} at the start and ${machine.loadEnd} at the end (1, 5, 15 minutes).`,
    `Ours: ${sdpaModules.map(moduleText).join(', ')}. Peers: ${peers}, from the npm registry.`,
    `Ceiling (lib/ceiling.mjs, read before every table): ${ceilingText(ceilings)}.`,
    ...(option('--note') ? ['', option('--note')] : []),
    '',
    'How to read it: [docs/performance.md](../docs/performance.md).',
    '',
    '![GFLOP/s against sequence length](chart.svg)',
    '',
  ];
  if (targets.length) {
    lines.push('## Against onnxruntime-web and tfjs-backend-wasm', '', '| configuration | ours | peer (fastest form) | ours GFLOP/s | peer GFLOP/s | ours faster by | target | met |', '| --- | --- | --- | ---: | ---: | ---: | ---: | --- |');
    for (const t of targets) lines.push(`| ${t.config} | ${t.build} | ${t.peer} | ${t.ours.toFixed(2)} | ${t.theirs.toFixed(2)} | ${t.ratio.toFixed(2)}x | ${t.target}x | ${t.met ? 'yes' : 'no'} |`);
    lines.push('');
  }
  if (efficiencies.length) {
    lines.push('## Of the ceiling', '', '| configuration | ours | the call, of ceiling | the core, of ceiling | target | met |', '| --- | --- | ---: | ---: | ---: | --- |');
    for (const e of efficiencies) lines.push(`| ${e.config} | ${e.build} | ${percent(e.efficiency)} | ${percent(e.core)} | ${100 * e.target}% | ${e.met ? 'yes' : 'no'} |`);
    lines.push('');
  }
  if (training) lines.push('## Training', '', ...trainingLines, '');
  lines.push('## Every table', '');
  for (const m of measured) lines.push(markdownTable(m), '');
  return lines.join('\n');
}
process.exit(0); // the peers keep worker threads and handles alive
