// The memory target of the speed issue: Tq = Tk = 16384, d = dv = 64, H = 1, forward and backward
// through the public API with the SIMD module's whole wasm memory under 64 MiB (q, k, v, out, dout,
// dq, dk, dv are 4 MiB each; the (Tq, Tk) matrix alone would be 1 GiB).
// Usage: node tools/bench/sdpa-memory.mjs [T]     (prints the wasm memory size after each call)
import { readFile } from 'node:fs/promises';
import { createAttention } from '../../web/src/api.js';
import { loadModule } from '../../web/src/boundary/loader.js';

const T = Number(process.argv[2] ?? 16384);
const d = 64;
const MiB = 1024 * 1024;

// A module of its own (wasmBinary: not the cached one), so its memory is this script's alone.
const wasmBinary = await readFile(new URL('../../web/wasm/attention-simd.wasm', import.meta.url));
const { runtime } = await loadModule({ simd: true, wasmBinary });
const attn = createAttention(runtime);
const memory = () => runtime.module.HEAPU8.buffer.byteLength / MiB;

const fill = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233));
const shape = [1, 1, T, d];
const [q, k, v, dout] = [1, 2, 3, 4].map((seed) => ({ data: fill(T * d, seed), shape }));

console.log(`sdpa memory, Tq = Tk = ${T}, d = dv = ${d}, H = 1, causal; wasm memory at start ${memory().toFixed(1)} MiB`);
const time = (label, call) => {
  const u0 = process.cpuUsage();
  const t0 = performance.now();
  const result = call();
  const u = process.cpuUsage(u0);
  console.log(`${label.padEnd(34)} ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ` +
    `${((u.user + u.system) / 1e6).toFixed(2)} s cpu, wasm memory ${memory().toFixed(1)} MiB`);
  return result;
};
const options = { causal: true };
const forward = time('forward (output, lse)', () => attn.scaledDotProductAttention(q, k, v, { ...options, returnLse: true }));
const recomputed = time('backward (recomputes the forward)', () => attn.scaledDotProductAttentionBackward(q, k, v, dout, options));
const saved = time('backward (saved output, lse)', () => attn.scaledDotProductAttentionBackward(q, k, v, dout, { ...options, saved: forward }));
let worst = 0;
for (let i = 0; i < saved.dq.data.length; i++) worst = Math.max(worst, Math.abs(saved.dq.data[i] - recomputed.dq.data[i]));
const peak = memory();
console.log(`peak wasm memory ${peak.toFixed(1)} MiB (${peak < 64 ? 'under' : 'OVER'} 64 MiB); ` +
  `dq saved vs recomputed differ by at most ${worst.toExponential(1)}; output finite: ${forward.output.data.every(Number.isFinite)}`);
process.exitCode = peak < 64 ? 0 : 1;
