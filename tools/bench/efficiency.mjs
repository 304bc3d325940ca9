// Our wasm builds against the machine's ceiling, in CPU time: usable on a machine shared with other
// jobs, where npm run bench's wall-clock rates (and so its efficiencies) read low. One thread.
// Usage: node [--experimental-wasm-relaxed-simd] tools/bench/efficiency.mjs [--sizes 512,1024] [--rounds N]
// Per size: sdpa forward (a fresh output per call, and the caller's own with options.out) and
// forward+backward given the saved forward (out, lse), B=1 H=8 d=64
// (and the BERT-base shape B=8 H=12 T=128 d=64), wasm-simd and wasm-relaxed alternating, median
// CPU ms; efficiency = GFLOP/s over the mul+add ceiling (simd) or the relaxed_madd one (relaxed), of
// the whole call and of the same calls' time inside the core alone (lib/core-clock.mjs: without the
// API's checks and copies in and out).
import { loadAttention, relaxedSimdSupported } from '../../web/src/index.js';
import { ceilingOf, ceilingText, higherCeilings, measureCeilings } from './lib/ceiling.mjs';
import { coreClock, coreMedianMs, withCoreSamples } from './lib/core-clock.mjs';
import { fill } from './lib/contender.mjs';
import { describeMachine } from './lib/machine.mjs';
import { median, timeAlternating } from '../../web/site/features/speed/timing.js';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const sizes = option('--sizes')?.split(',').map(Number) ?? [512, 1024];
const rounds = Number(option('--rounds') ?? 9);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const timeCpu = (fn) => {
  const t0 = cpuMs();
  fn();
  return cpuMs() - t0;
};

console.log(describeMachine().text);
// Read before every shape and at the end; the rows are printed at the end, over the highest reading.
let ceilings = await measureCeilings();
const builds = [await loadAttention({ simd: true }), ...(relaxedSimdSupported() ? [await loadAttention({ simd: 'relaxed' })] : [])];
const label = (attn) => `${attn.backend} ${attn.build.tile}`;
console.log(`builds: ${builds.map(label).join(', ')}`);
const clocks = await Promise.all(builds.map((attn) => coreClock(attn, cpuMs)));

const shapes = [...sizes.map((T) => ({ B: 1, H: 8, T, d: 64 })), { B: 8, H: 12, T: 128, d: 64 }];
const rows = [];
for (const { B, H, T, d } of shapes) {
  if (rows.length > 0) ceilings = higherCeilings(ceilings, await measureCeilings());
  const shape = [B, H, T, d];
  const n = B * H * T * d;
  const [q, k, v, dout] = [1, 2, 3, 4].map((seed) => ({ data: fill(n, seed), shape }));
  const out = new Float32Array(n); // d = dv: the output has q's size
  const passes = [
    ['forward', 4, (attn) => () => attn.scaledDotProductAttention(q, k, v)],
    ['forward (out)', 4, (attn) => () => attn.scaledDotProductAttention(q, k, v, { out })],
    [
      'fwd+bwd (saved)',
      14,
      (attn) => () => {
        const saved = attn.scaledDotProductAttention(q, k, v, { returnLse: true });
        attn.scaledDotProductAttentionBackward(q, k, v, dout, { saved });
      },
    ],
  ];
  for (const [pass, perEntry, make] of passes) {
    const flops = perEntry * B * H * T * T * d;
    const contenders = builds.map((attn, i) => {
      const run = make(attn);
      return withCoreSamples({ time: async () => timeCpu(run) }, clocks[i]);
    });
    const samples = await timeAlternating(contenders, { minSamples: rounds, maxSamples: rounds, warmupMs: Infinity, maxWarmup: 3 });
    builds.forEach((attn, i) => {
      const ms = median(samples[i]);
      const coreMs = coreMedianMs(contenders[i], samples[i].length);
      rows.push({ name: `B=${B} H=${H} T=${T} d=${d}`, pass, backend: attn.backend, build: label(attn), flops, ms, coreMs });
    });
  }
}
ceilings = higherCeilings(ceilings, await measureCeilings());
console.log(ceilingText(ceilings));
console.log('\nshape                     pass              build                     CPU ms  GFLOP/s  of ceiling  core ms  core of ceiling');
for (const { name, pass, backend, build, flops, ms, coreMs } of rows) {
  const ceiling = ceilingOf(ceilings, backend);
  const percent = (x) => `${(100 * (flops / x / 1e6 / ceiling)).toFixed(1)}%`;
  console.log(
    `${name.padEnd(26)}${pass.padEnd(18)}${build.padEnd(24)}${ms.toFixed(2).padStart(8)}${(flops / ms / 1e6).toFixed(1).padStart(9)}` +
      `${percent(ms).padStart(12)}${coreMs.toFixed(2).padStart(9)}${percent(coreMs).padStart(17)}`,
  );
}
