// The speed panel's timings run in this module worker, off the page's thread: the library's builds
// (wasm with relaxed SIMD where the engine has it, wasm SIMD, wasm scalar: one loadAttention each)
// and the plain-JS loops the benchmarks compare against (plain-js-attention.js, imported, not
// copied), all on the same random q, k, v of shape (1, H, T, d); and this machine's ceiling through
// wasm SIMD (ceiling-probe.js), read before and after the timing, so that each build's GFLOP/s can
// be read as a fraction of what the machine can do.
//   in:  { type: 'run', T, d, heads, budgetMs }, { type: 'cancel' }
//   out: { type: 'ceiling', ceiling }, { type: 'ready', contenders }, { type: 'round', stats, round },
//        { type: 'done', stats, ceiling }, { type: 'error', message }
//   ceiling: { simd, relaxed } GFLOP/s of f32x4 mul+add and of f32x4.relaxed_madd (null where the
//        engine has no relaxed SIMD), the higher of the readings so far
import { attentionForward } from '../../../measure/plain-js-attention.js';
import { loadAttention } from '../../../src/index.js';
import { measureCeiling } from '../../../measure/ceiling-probe.js';
import { timeContenders } from '../../../measure/timing.js';

let cancelled = false;

function randomTensor(n, seed) {
  let a = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 2 ** 32 - 0.5;
  });
}

// One reading of both ceilings, each the best of five calls of about 20 ms (wall clock: a page has
// no CPU clock); merged with an earlier reading by taking the higher of each, since a low reading
// is time another job took, not what the machine can do.
async function readCeiling(earlier = { simd: null, relaxed: null }) {
  const [simd, relaxed] = [await measureCeiling({ clock: 'wall' }), await measureCeiling({ relaxed: true, clock: 'wall' })];
  const higher = (a, b) => (a === null ? b : b === null ? a : Math.max(a, b));
  return { simd: higher(earlier.simd, simd?.gflops ?? null), relaxed: higher(earlier.relaxed, relaxed?.gflops ?? null) };
}

async function run({ T, d, heads, budgetMs }) {
  let ceiling = await readCeiling();
  postMessage({ type: 'ceiling', ceiling });
  // An engine without SIMD (or without relaxed SIMD) rejects that load: the other contenders still run.
  const [relaxed, simd, scalar] = await Promise.all([
    ceiling.relaxed === null ? null : loadAttention({ simd: 'relaxed' }).catch(() => null),
    loadAttention({ simd: true }).catch(() => null),
    loadAttention({ simd: false }),
  ]);
  const n = heads * T * d;
  const q = randomTensor(n, 1);
  const k = randomTensor(n, 2);
  const v = randomTensor(n, 3);
  const shape = [1, heads, T, d];
  const out = new Float32Array(n);
  const scale = 1 / Math.sqrt(d);
  const wasm = (attn) => () => attn.scaledDotProductAttention({ data: q, shape }, { data: k, shape }, { data: v, shape });
  const contenders = [
    relaxed && { id: 'wasm-relaxed', run: wasm(relaxed) },
    simd && { id: 'wasm-simd', run: wasm(simd) },
    { id: 'wasm-scalar', run: wasm(scalar) },
    { id: 'plain-js', run: () => attentionForward(q, k, v, out, heads, T, d, scale) },
  ].filter(Boolean);
  postMessage({ type: 'ready', contenders: contenders.map((c) => c.id) });
  const stats = await timeContenders(contenders, {
    budgetMs,
    onRound: (s, round) => postMessage({ type: 'round', stats: s, round }),
    cancelled: () => cancelled,
  });
  if (!cancelled) ceiling = await readCeiling(ceiling);
  postMessage({ type: 'done', stats, ceiling });
}

addEventListener('message', ({ data }) => {
  if (data.type === 'cancel') cancelled = true;
  if (data.type !== 'run') return;
  cancelled = false;
  run(data).catch((error) => postMessage({ type: 'error', message: error.message }));
});
