// The speed panel's timings run in this module worker, off the page's thread: the wasm SIMD
// build, the wasm scalar build (a second loadAttention({ simd: false })) and the plain-JS loops
// the benchmarks compare against (web/site/features/speed/plain-js-attention.js, imported, not copied), all
// on the same random q, k, v of shape (1, H, T, d).
//   in:  { type: 'run', T, d, heads, budgetMs }, { type: 'cancel' }
//   out: { type: 'ready', contenders }, { type: 'round', stats, round }, { type: 'done', stats }, { type: 'error', message }
import { attentionForward } from './plain-js-attention.js';
import { loadAttention } from '../../../src/index.js';
import { timeContenders } from './timing.js';

let cancelled = false;

function randomTensor(n, seed) {
  let a = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return a / 2 ** 32 - 0.5;
  });
}

async function run({ T, d, heads, budgetMs }) {
  // An engine without SIMD rejects the first load: the other two contenders still run.
  const [simd, scalar] = await Promise.all([loadAttention({ simd: true }).catch(() => null), loadAttention({ simd: false })]);
  const n = heads * T * d;
  const q = randomTensor(n, 1);
  const k = randomTensor(n, 2);
  const v = randomTensor(n, 3);
  const shape = [1, heads, T, d];
  const out = new Float32Array(n);
  const scale = 1 / Math.sqrt(d);
  const wasm = (attn) => () => attn.scaledDotProductAttention({ data: q, shape }, { data: k, shape }, { data: v, shape });
  const contenders = [
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
  postMessage({ type: 'done', stats });
}

addEventListener('message', ({ data }) => {
  if (data.type === 'cancel') cancelled = true;
  if (data.type !== 'run') return;
  cancelled = false;
  run(data).catch((error) => postMessage({ type: 'error', message: error.message }));
});
