// Speed of scaled dot-product attention through the public JS API, B=1, H=8, d=dv=64, one thread:
// forward and forward+backward, full and causal (top-left), at several T = Tq = Tk, for the SIMD
// and scalar builds, and optionally for another checkout's build (e.g. the row-streaming baseline).
// Usage: node tools/bench/sdpa-speed.mjs [--sizes 512,1024,2048] [--rounds 7]
//                                        [--baseline path/to/web/src/index.js] [--no-scalar]
// Rounds alternate between contenders so drift cancels; each contender gets warm-up calls first
// (V8 tiers wasm up only between calls, docs/toolchain.md). Each call is timed twice: wall clock, and
// the CPU time of this process (process.cpuUsage), which stays meaningful on a machine shared with
// other jobs (wall time there includes the slices other processes ran). Medians of whole API calls
// (copies in and out of wasm memory included); GFLOP/s and ratios use the CPU time.
//
// GFLOP/s counts useful flops with N = B H (visible (query, key) pairs): T^2 per head, or
// T (T + 1) / 2 under the causal mask:
//   forward           4 N d   S = Q K^T and O = P V (2 flops per multiply-add)
//   forward+backward 12 N d   the forward, then dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q
// The public backward also recomputes S (2 N d, not counted), and the forward's out and lse (4 N d,
// not counted) unless it is given them (options.saved: the 'fwd+bwd (saved)' rows).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { median, timeAlternating } from '../../web/measure/timing.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SIZES = option('--sizes', '512,1024,2048').split(',').map(Number);
const ROUNDS = Number(option('--rounds', 7));
const WARMUP_CALLS = 3;  // and at least WARMUP_MS per contender, so every hot function has tiered up
const WARMUP_MS = 500;
const H = 8;
const d = 64;

const load = async (path) => (await import(pathToFileURL(resolve(path)).href)).loadAttention;
const contenders = [];
const ours = await load(new URL('../../web/src/index.js', import.meta.url).pathname);
contenders.push({ name: 'simd', attn: await ours({ simd: true }) });
if (option('--baseline', null)) {
  contenders.push({ name: 'baseline simd', attn: await (await load(option('--baseline')))({ simd: true }) });
}
if (!args.includes('--no-scalar')) contenders.push({ name: 'scalar', attn: await ours({ simd: false }) });

// Deterministic inputs in [-1, 1): a sine hash, so every run times the same numbers.
const fill = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233));
const maxAbsDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

const passes = {
  forward: (attn, x, options) => attn.scaledDotProductAttention(x.q, x.k, x.v, options).output.data,
  'forward+backward': (attn, x, options) => {
    attn.scaledDotProductAttention(x.q, x.k, x.v, options);
    return attn.scaledDotProductAttentionBackward(x.q, x.k, x.v, x.dout, options).dq.data;
  },
  // The backward given the forward's output and lse (options.saved) skips recomputing the forward.
  'fwd+bwd (saved)': (attn, x, options) => {
    if (!takesSaved(attn)) return passes['forward+backward'](attn, x, options); // an older build
    const saved = attn.scaledDotProductAttention(x.q, x.k, x.v, { ...options, returnLse: true });
    return attn.scaledDotProductAttentionBackward(x.q, x.k, x.v, x.dout, { ...options, saved }).dq.data;
  },
};
// Whether this build's backward takes options.saved (the baseline of an older checkout does not).
const takesSavedCache = new Map();
function takesSaved(attn) {
  if (!takesSavedCache.has(attn)) {
    const t = { data: new Float32Array(4), shape: [2, 2] };
    try {
      attn.scaledDotProductAttentionBackward(t, t, t, t, { saved: attn.scaledDotProductAttention(t, t, t, { returnLse: true }) });
      takesSavedCache.set(attn, true);
    } catch {
      takesSavedCache.set(attn, false);
    }
  }
  return takesSavedCache.get(attn);
}
const flopsPerPair = { forward: 4 * d, 'forward+backward': 12 * d, 'fwd+bwd (saved)': 12 * d };

console.log(`sdpa through the JS API, B=1 H=${H} d=dv=${d}, node ${process.version}, ${ROUNDS} alternating rounds, median ms`);
console.log('T      mask    pass              contender       wall ms    cpu ms   GFLOP/s  vs first  (max |diff| vs first)');
for (const T of SIZES) {
  const shape = [1, H, T, d];
  const x = Object.fromEntries(['q', 'k', 'v', 'dout'].map((name, i) => [name, { data: fill(H * T * d, i + 1), shape }]));
  for (const causal of [false, true]) {
    const options = causal ? { causal: true } : {};
    const pairs = H * (causal ? (T * (T + 1)) / 2 : T * T);
    for (const [pass, run] of Object.entries(passes)) {
      const results = contenders.map((c) => run(c.attn, x, options));
      for (const c of contenders) {
        const start = performance.now();
        for (let w = 1; w < WARMUP_CALLS || performance.now() - start < WARMUP_MS; w++) run(c.attn, x, options);
      }
      const cpu = contenders.map(() => []);
      const rounds = contenders.some((c) => c.name === 'scalar') && T > 1024 ? Math.min(ROUNDS, 3) : ROUNDS;
      // Each timed call also records this process's CPU time, which the ratios use.
      const timers = contenders.map((c, i) => ({
        time: () => {
          const u0 = process.cpuUsage();
          const t0 = performance.now();
          run(c.attn, x, options);
          const ms = performance.now() - t0;
          const u = process.cpuUsage(u0);
          cpu[i].push((u.user + u.system) / 1000);
          return ms;
        },
      }));
      const wall = await timeAlternating(timers, { minSamples: rounds, maxSamples: rounds, maxWarmup: 0 });
      const first = median(cpu[0]);
      contenders.forEach((c, i) => {
        const ms = median(cpu[i]);
        const gflops = (flopsPerPair[pass] * pairs) / ms / 1e6;
        console.log(
          `${String(T).padEnd(7)}${(causal ? 'causal' : 'full').padEnd(8)}${pass.padEnd(18)}${c.name.padEnd(14)}` +
            `${median(wall[i]).toFixed(2).padStart(9)}${ms.toFixed(2).padStart(10)}${gflops.toFixed(1).padStart(10)}` +
            `${(ms / first).toFixed(2).padStart(9)}x  (${maxAbsDiff(results[i], results[0]).toExponential(1)})`,
        );
      });
    }
  }
}
