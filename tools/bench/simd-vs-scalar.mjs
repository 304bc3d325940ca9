// SIMD vs scalar wasm builds (and a plain-JS loop) on 512 x 512 scaled dot-product attention.
// Usage: node tools/bench/simd-vs-scalar.mjs [--rounds N] [--quick]
// Each round times one call per contender, alternating, after a warm-up: V8 tiers wasm up only
// between calls (docs/toolchain.md), so many short calls measure the optimised code. Medians printed.
import { loadAttention } from '../../web/src/index.js';
import { fill } from './lib/contender.mjs';
import { attentionBackward, attentionForward } from '../../web/measure/plain-js-attention.js';
import { median, timeAlternating, timeCall } from '../../web/measure/timing.js';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const quick = args.includes('--quick');
const ROUNDS = flag('--rounds', quick ? 5 : 15);
const WARMUP = 3;
const T = 512;
const d = 64;
const SHAPES = quick ? [{ H: 1 }] : [{ H: 1 }, { H: 8 }];

const simd = await loadAttention({ simd: true });
const scalar = await loadAttention({ simd: false });

function wasmContender(attn) {
  return {
    name: attn.backend,
    forward: ({ q, k, v }) => attn.scaledDotProductAttention(q, k, v).output.data,
    forwardBackward: ({ q, k, v, dout }) => {
      attn.scaledDotProductAttention(q, k, v);
      return attn.scaledDotProductAttentionBackward(q, k, v, dout).dq.data;
    },
  };
}

const plainJs = {
  name: 'plain JS',
  forward: ({ q, k, v, H }) => {
    const out = new Float32Array(q.data.length);
    attentionForward(q.data, k.data, v.data, out, H, T, d, 1 / Math.sqrt(d));
    return out;
  },
  forwardBackward: ({ q, k, v, dout, H }) => {
    const n = q.data.length;
    attentionForward(q.data, k.data, v.data, new Float32Array(n), H, T, d, 1 / Math.sqrt(d));
    const dq = new Float32Array(n);
    attentionBackward(q.data, k.data, v.data, dout.data, dq, new Float32Array(n), new Float32Array(n), H, T, d, 1 / Math.sqrt(d));
    return dq;
  },
};

const contenders = [wasmContender(simd), wasmContender(scalar), plainJs];
const maxAbsDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

const rows = [];
for (const { H } of SHAPES) {
  const shape = [1, H, T, d];
  const input = { H, q: { data: fill(H * T * d, 1), shape }, k: { data: fill(H * T * d, 2), shape }, v: { data: fill(H * T * d, 3), shape }, dout: { data: fill(H * T * d, 4), shape } };
  // Forward: q k^T and P v, 2 flops per multiply-add each. Backward: S again, dP, dV, dQ, dK.
  for (const [pass, flopsPerEntry] of [['forward', 4], ['forwardBackward', 14]]) {
    const flops = flopsPerEntry * H * T * T * d;
    const results = contenders.map((c) => c[pass](input));
    // Everyone computes the same thing (float32 sums in different orders agree to ~1e-5 here).
    const disagreement = Math.max(...results.slice(1).map((r) => maxAbsDiff(r, results[0])));
    const times = await timeAlternating(
      contenders.map((c) => ({ time: () => timeCall(() => c[pass](input)) })),
      { minSamples: ROUNDS, maxSamples: ROUNDS, warmupMs: Infinity, maxWarmup: WARMUP },
    );
    const scalarMs = median(times[1]);
    contenders.forEach((c, i) => {
      const ms = median(times[i]);
      rows.push({ pass, H, contender: c.name, ms, gflops: flops / ms / 1e6, speedup: scalarMs / ms, disagreement });
    });
  }
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`scaled dot-product attention, B=1, Tq=Tk=${T}, d=dv=${d}, ${ROUNDS} alternating rounds after ${WARMUP} warm-up calls, median per call`);
console.log(`node ${process.version}, ${simd.backend} kernels '${simd.arch}', ${scalar.backend} kernels '${scalar.arch}'\n`);
console.log(`${pad('pass', 18)}${pad('H', 4)}${pad('contender', 13)}${lpad('median ms', 11)}${lpad('GFLOP/s', 10)}${lpad('vs scalar', 11)}`);
for (const r of rows) {
  console.log(
    `${pad(r.pass === 'forward' ? 'forward' : 'forward+backward', 18)}${pad(r.H, 4)}${pad(r.contender, 13)}` +
      `${lpad(r.ms.toFixed(2), 11)}${lpad(r.gflops.toFixed(2), 10)}${lpad(r.speedup.toFixed(2) + 'x', 11)}`,
  );
}
const worst = Math.max(...rows.map((r) => r.disagreement));
console.log(`\nlargest difference between contenders' results: ${worst.toExponential(1)}`);
console.log('GFLOP/s counts 4 B H Tq Tk d for the forward and 14 B H Tq Tk d for forward+backward.');
