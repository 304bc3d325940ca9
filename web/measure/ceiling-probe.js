// The machine's WebAssembly SIMD ceiling for the kernels' work: a probe module whose loop runs
// `chains` independent f32x4 multiply-add chains,
//   acc[i] = acc[i] * m + c      (f32x4.mul then f32x4.add; or one f32x4.relaxed_madd)
// and nothing else but a counter. Each step of a chain waits for the one before (mul and add
// latencies, 3 + 3 cycles on Zen 3/4, or the FMA's 4), so enough chains keep every FP pipe busy:
// 12 cover two mul and two add pipes at 6 cycles, or two FMA pipes at 4, and 14 (the default) is
// the most that fit x64's 16 vector registers beside m and c (16 chains would spill).
// The speed panel reads it in the browser (web/site/features/speed/worker.js) and the bench in Node
// (tools/bench/lib/ceiling.mjs).
//
// The module is written as bytes (module-bytes.js) rather than compiled from C++: a compiler is free
// to merge, reorder or vectorise the chains, and our clang would emit relaxed_madd only with its
// pre-standard opcode; bytes say exactly which instructions V8 sees, in any engine.
import { f32x4Const, I32, F32, moduleBytes, op, s32, simd, V128 } from './module-bytes.js';

const F32X4_ADD = 0xe4;
const F32X4_MUL = 0xe6;
const F32X4_EXTRACT_LANE = 0x1f;
const F32X4_RELAXED_MADD = 0x105;

/** The probe: f(n) runs n steps of every chain and returns a lane of their sum (n >= 1). */
export function probeBytes({ relaxed = false, chains = 14 } = {}) {
  const n = 0; // local 0: the parameter; 1..chains: the accumulators; then m and c
  const acc = (i) => 1 + i;
  const m = chains + 1;
  const c = chains + 2;
  const get = (x) => [op.local_get, x];
  const set = (x) => [op.local_set, x];
  // acc = acc * 0.5 + 0.5 goes to 1 and stays there: no subnormals, no overflow, whatever n is.
  // The chains start apart, so that no compiler may merge them as one computation.
  const init = [...f32x4Const([0.5, 0.5, 0.5, 0.5]), ...set(m), ...f32x4Const([0.5, 0.5, 0.5, 0.5]), ...set(c)];
  for (let i = 0; i < chains; i++) init.push(...f32x4Const([i + 2, i + 2, i + 2, i + 2]), ...set(acc(i)));
  const step = [];
  for (let i = 0; i < chains; i++) {
    if (relaxed) step.push(...get(acc(i)), ...get(m), ...get(c), ...simd(F32X4_RELAXED_MADD), ...set(acc(i)));
    else step.push(...get(acc(i)), ...get(m), ...simd(F32X4_MUL), ...get(c), ...simd(F32X4_ADD), ...set(acc(i)));
  }
  const count = [...get(n), op.i32_const, ...s32(1), op.i32_sub, op.local_tee, n, op.br_if, 0];
  const sum = [...get(acc(0))];
  for (let i = 1; i < chains; i++) sum.push(...get(acc(i)), ...simd(F32X4_ADD));
  sum.push(...simd(F32X4_EXTRACT_LANE), 0);
  return moduleBytes({
    params: [I32],
    results: [F32],
    locals: [[chains + 2, V128]],
    body: [...init, op.block, op.void, op.loop, op.void, ...step, ...count, op.end, op.end, ...sum],
  });
}

/** Flops of one step: every chain does a multiply and an add on 4 lanes. */
const flopsPerStep = (chains) => chains * 4 * 2;

/** The probe's f, tiered up to TurboFan, or null when the engine does not validate it (relaxed SIMD off). */
export async function tieredProbe({ relaxed = false, chains = 14 } = {}) {
  const bytes = probeBytes({ relaxed, chains });
  if (!WebAssembly.validate(bytes)) return null;
  const { instance } = await WebAssembly.instantiate(bytes);
  const f = instance.exports.f;
  // Warm-up: V8 first runs Liftoff code and compiles TurboFan code in the background; a call
  // already running stays in Liftoff, so the timed calls come after many short ones and a pause.
  for (let i = 0; i < 50; i++) f(20000);
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (let i = 0; i < 10; i++) f(20000);
  return f;
}

/**
 * read(): GFLOP/s of one call of f timed by the clock now() (ms), the call's steps chosen once so
 * that it lasts about targetMs.
 */
export function probeReader(f, chains, now, targetMs) {
  const first = 100000;
  const t0 = now();
  f(first);
  const steps = Math.max(10000, Math.round((first * targetMs) / Math.max(now() - t0, 0.05)));
  return () => {
    const start = now();
    f(steps);
    return (flopsPerStep(chains) * steps) / ((now() - start) * 1e6);
  };
}

// CPU time of this process where the engine has it (Node): on a machine shared with other jobs, wall
// time counts their time slices too (at a load average of 10 on 2 cores, 5 times over); a browser
// page has only wall time.
const hasCpuClock = typeof process === 'object' && typeof process?.cpuUsage === 'function';
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
export const wallNow = () => performance.now();

/**
 * -> { gflops, chains, relaxed, clock } (the best of `samples` calls of about `targetMs` each), or null
 * when the engine does not validate the probe (relaxed SIMD off). clock 'cpu' (where the engine
 * has it, else 'wall') or 'wall'.
 */
export async function measureCeiling({ relaxed = false, chains = 14, targetMs = 20, samples = 5, clock = 'cpu' } = {}) {
  const cpu = clock === 'cpu' && hasCpuClock;
  const f = await tieredProbe({ relaxed, chains });
  if (!f) return null;
  const read = probeReader(f, chains, cpu ? cpuNow : wallNow, targetMs);
  let best = 0;
  for (let s = 0; s < samples; s++) best = Math.max(best, read());
  return { gflops: best, chains, relaxed, clock: cpu ? 'cpu' : 'wall' };
}
