// Threads and call overhead (not a test: numbers for the README and issue 3).
//   node tools/bench/threads.mjs [--rounds N] [--size T]
// 1. B=1, H=8, Tq=Tk=T (1024), d=dv=64, forward and forward+backward: the default synchronous API
//    (one thread) against loadAttention({ threads: 2 }) and the one-worker pool (threads: 1, what
//    'attention-lab/worker' gives), alternating round by round so drift hits all alike; medians.
// 2. The per-call time of a 4x4 attention (Tq=Tk=4, d=4), wall and CPU: the synchronous API, the
//    parallel API's inline path, and a forced round trip to a worker (inlineBelow: 0).
// The machine may be shared: the load average, and the share of the machine other jobs took during
// each table, are printed; trust ratios from a table during which others took (almost) nothing.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { loadAttention } from '../../web/src/index.js';
import { median, timeAlternating, timeCall } from '../../web/measure/timing.js';

const argValue = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROUNDS = argValue('--rounds', 15);
const T = argValue('--size', 1024);
const H = 8;
const D = 64;

const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/**
 * What other jobs took of the machine since `start` (Linux: /proc/stat's busy time of all cores
 * minus this process's own CPU time), as a fraction of all cores; null elsewhere. A table measured
 * while others took a visible share understates what 2 threads give.
 */
function machineShare() {
  let text;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  const [user, nice, system, idle, iowait, irq, softirq, steal] = text.split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const tick = 1e6 / 100; // us per USER_HZ tick (100 on Linux)
  return { busy: (user + nice + system + irq + softirq + steal) * tick, total: (user + nice + system + idle + iowait + irq + softirq + steal) * tick, own: process.cpuUsage() };
}

function othersShare(start) {
  const end = machineShare();
  if (start === null || end === null) return 'unknown';
  const own = end.own.user + end.own.system - start.own.user - start.own.system;
  const others = Math.max(0, end.busy - start.busy - own) / (end.total - start.total);
  return `${(100 * others).toFixed(0)}% of the machine`;
}
const random = (shape, seed) => ({
  data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(seed * 7919 + i * 104729)),
  shape,
});

async function threadTable() {
  const q = random([1, H, T, D], 1);
  const k = random([1, H, T, D], 2);
  const v = random([1, H, T, D], 3);
  const dout = random([1, H, T, D], 4);
  const contenders = [
    { name: 'sync API (1 thread)', attn: await loadAttention() },
    { name: 'pool, threads: 1', attn: await loadAttention({ threads: 1 }) },
    { name: 'pool, threads: 2', attn: await loadAttention({ threads: 2 }) },
  ];
  const work = {
    forward: (attn) => attn.scaledDotProductAttention(q, k, v),
    'forward+backward': async (attn) => {
      await attn.scaledDotProductAttention(q, k, v);
      await attn.scaledDotProductAttentionBackward(q, k, v, dout);
    },
  };
  const flops = { forward: 4 * H * T * T * D, 'forward+backward': (4 + 8) * H * T * T * D };
  for (const [label, run] of Object.entries(work)) {
    const start = machineShare();
    // 3 warm-up calls each (V8 tiers wasm up between calls), then ROUNDS alternating rounds.
    const samples = await timeAlternating(contenders.map((c) => ({ time: () => timeCall(() => run(c.attn)) })), {
      minSamples: ROUNDS, maxSamples: ROUNDS, warmupMs: Infinity, maxWarmup: 3,
    });
    const times = new Map(contenders.map((c, i) => [c, samples[i]]));
    const base = median(times.get(contenders[0]));
    console.log(`\n${label}: B=1, H=${H}, Tq=Tk=${T}, d=${D}, median of ${ROUNDS} (load ${load()}; other jobs took ${othersShare(start)} meanwhile)`);
    console.log('| contender | median ms | GFLOP/s | speed-up vs 1 thread |');
    console.log('|---|---:|---:|---:|');
    for (const c of contenders) {
      const ms = median(times.get(c));
      console.log(`| ${c.name} | ${ms.toFixed(1)} | ${(flops[label] / ms / 1e6).toFixed(1)} | ${(base / ms).toFixed(2)}x |`);
    }
  }
  for (const c of contenders) c.attn.dispose?.();
}

/**
 * Median per-call microseconds of `call` over batches of `perBatch` calls: wall time, and the
 * process's CPU time (user + system), which other jobs' time slices do not inflate.
 */
async function perCall(call, perBatch, batches) {
  for (let i = 0; i < perBatch; i++) await call();
  const wall = [];
  const cpu = [];
  for (let b = 0; b < batches; b++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    for (let i = 0; i < perBatch; i++) await call();
    const used = process.cpuUsage(startCpu);
    wall.push(((performance.now() - start) * 1000) / perBatch);
    cpu.push((used.user + used.system) / perBatch);
  }
  return `${median(wall).toFixed(2)} | ${median(cpu).toFixed(2)}`;
}

async function overheadTable() {
  const x = random([4, 4], 5);
  const sync = await loadAttention();
  const inline = await loadAttention({ threads: 1 });
  const remote = await loadAttention({ threads: 1, inlineBelow: 0 });
  console.log(`\n4x4 call overhead: scaledDotProductAttention, Tq=Tk=4, d=4 (load ${load()})`);
  console.log('| path | median us per call (wall) | CPU us per call (all threads) |');
  console.log('|---|---:|---:|');
  console.log(`| sync API | ${await perCall(() => sync.scaledDotProductAttention(x, x, x), 20000, 25)} |`);
  console.log(`| parallel API, inline (await) | ${await perCall(() => inline.scaledDotProductAttention(x, x, x), 20000, 25)} |`);
  console.log(`| parallel API, round trip to a worker | ${await perCall(() => remote.scaledDotProductAttention(x, x, x), 500, 15)} |`);
  inline.dispose();
  remote.dispose();
}

console.log(`threads.mjs: node ${process.version}, ${os.cpus().length} cpus, load average ${load()} (1, 5, 15 min)`);
await overheadTable();
await threadTable();
console.log(`\nload average at the end: ${load()}`);
