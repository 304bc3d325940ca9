// Scaled dot-product attention at sizes around and beyond the kernels' query/key blocks and vector
// widths (the fused path the kernels take when neither weights nor trace are requested, and the
// row-streaming path otherwise), forward, lse and backward, against a float64 reference written
// here from docs/semantics.md (tests/reference). This is the only place the wasm simd128 kernels are
// exercised at sizes with several blocks and ragged tails.
import { beforeAll, describe, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { sdpaReference } from '../../reference/index.js';

// float32 storage and accumulation over up to 257 keys (and dv summed over 2 query heads and up to
// 130 rows) of products of inputs in [-1, 1): measured worst 4.5e-7 absolute (dv), 1.2e-7 for the
// output. 5e-6 absolute + 2e-5 relative keeps 10x headroom for another summation order; a mask off
// by one key moves outputs by > 1e-3.
const TOLERANCE = { rtol: 2e-5, atol: 5e-6 };

function boolMask(rand, Tq, Tk) {
  const data = new Uint8Array(Tq * Tk);
  for (let i = 0; i < data.length; i++) data[i] = rand() > -0.6 ? 1 : 0; // ~80 % visible
  return { data, shape: [Tq, Tk] };
}

// (Tq, Tk, d, dv) around typical block sizes (16, 32, 64, 128) and vector widths (4 in wasm, 8 in AVX2),
// with the masks the fused path must honour block by block.
const CASES = [
  { Tq: 1, Tk: 1, d: 3, dv: 5, masks: {} },
  { Tq: 7, Tk: 9, d: 8, dv: 4, masks: { causal: 'bottom-right' } },
  { Tq: 64, Tk: 64, d: 32, dv: 32, masks: { causal: 'top-left' } },
  { Tq: 65, Tk: 129, d: 24, dv: 20, masks: { causal: 'bottom-right', validLens: 'per row' } },
  { Tq: 130, Tk: 67, d: 17, dv: 9, masks: { causal: 'top-left', attnMask: true } },
  { Tq: 33, Tk: 257, d: 64, dv: 64, masks: { validLens: 'per batch', softcap: 2 } },
  // Head widths past the wasm products' blocks of 64 deep by 64 columns (kernels_gemm.cpp): S^T over
  // d in two depth blocks, O += P V and the gradients in two column blocks.
  { Tq: 70, Tk: 90, d: 100, dv: 72, masks: { causal: 'bottom-right' } },
  // dv = 128: the forward reads each key block's values through a padded copy (sdpa_fused.cpp
  // aliasing_stride), once per key block, which every group of rows on the diagonal reads.
  { Tq: 100, Tk: 150, d: 16, dv: 128, masks: { causal: 'bottom-right', validLens: 'per row' } },
  // d = dv = 128: the backward reads the query block's rows of q and of the gradient through padded
  // copies as well, once per query block.
  { Tq: 70, Tk: 100, d: 128, dv: 128, masks: { window: [50, 3] } },
  // Sliding windows whose edges cross the key blocks, and ALiBi (one slope per query head).
  { Tq: 129, Tk: 129, d: 16, dv: 8, masks: { window: [40, 0] } },
  { Tq: 65, Tk: 200, d: 12, dv: 12, masks: { window: [33, 31], alibi: [0.125, 0.03125] } },
  { Tq: 150, Tk: 70, d: 8, dv: 5, masks: { window: [-1, 2], causal: 'top-left', alibi: [0.5, -0.25] } },
];

function describeCase(c) {
  const m = Object.entries(c.masks).map(([k, v]) => (v === true ? k : `${k} ${v}`));
  return `Tq ${c.Tq}, Tk ${c.Tk}, d ${c.d}, dv ${c.dv}${m.length ? `, ${m.join(', ')}` : ''}`;
}

function makeCase(c, seed) {
  const rand = seededRandom(seed);
  const B = 2;
  const H = 2;
  const Hkv = 1; // grouped-query heads: both query heads read one kv head
  const q = randomTensor(rand, [B, H, c.Tq, c.d]);
  const k = randomTensor(rand, [B, Hkv, c.Tk, c.d]);
  const v = randomTensor(rand, [B, Hkv, c.Tk, c.dv]);
  const g = randomTensor(rand, [B, H, c.Tq, c.dv]);
  const options = {};
  if (c.masks.causal) options.causal = c.masks.causal;
  if (c.masks.softcap) options.softcap = c.masks.softcap;
  if (c.masks.window) options.window = c.masks.window;
  if (c.masks.alibi) options.alibi = c.masks.alibi;
  if (c.masks.attnMask) options.attnMask = boolMask(rand, c.Tq, c.Tk);
  if (c.masks.validLens === 'per batch') options.validLens = [c.Tk - 3, Math.ceil(c.Tk / 2)];
  if (c.masks.validLens === 'per row') {
    // every length from 0 (an empty row) to Tk, spread over the rows
    options.validLens = [0, 1].map((b) => Array.from({ length: c.Tq }, (_, i) => (i * 7 + b * 3) % (c.Tk + 1)));
  }
  return { q, k, v, g, options };
}

describe.each(BACKENDS)('sdpa at sizes across the kernel blocks vs a float64 reference ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  it.each(CASES.map((c, n) => [describeCase(c), c, n]))('%s: output, lse, weights path and gradients', (label, c, n) => {
    const { q, k, v, g, options } = makeCase(c, 100 + n);
    const ref = sdpaReference(q, k, v, options, g);
    const outShape = [2, 2, c.Tq, c.dv];
    const plain = attn.scaledDotProductAttention(q, k, v, options);
    expectClose(plain.output, { data: ref.out, shape: outShape }, { ...TOLERANCE, label: `${label}: output` });
    const full = attn.scaledDotProductAttention(q, k, v, { ...options, returnWeights: true, returnLse: true });
    expectClose(full.output, { data: ref.out, shape: outShape }, { ...TOLERANCE, label: `${label}: output with weights` });
    expectClose(full.lse, { data: ref.lse, shape: [2, 2, c.Tq] }, { ...TOLERANCE, label: `${label}: lse` });
    const grads = attn.scaledDotProductAttentionBackward(q, k, v, g, options);
    expectClose(grads.dq, { data: ref.dq, shape: q.shape }, { ...TOLERANCE, label: `${label}: dq` });
    expectClose(grads.dk, { data: ref.dk, shape: k.shape }, { ...TOLERANCE, label: `${label}: dk` });
    expectClose(grads.dv, { data: ref.dv, shape: v.shape }, { ...TOLERANCE, label: `${label}: dv` });
  });
});
