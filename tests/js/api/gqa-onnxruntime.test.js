// onnxruntime-web's com.microsoft.GroupQueryAttention as a second, independent reference of issue
// 12's forward: grouped kv heads, the sliding window, rotary positions (both pairings) and a past KV,
// against scaledDotProductAttention after rope. Where the two meet (docs/semantics.md, "Against
// onnxruntime's GroupQueryAttention"):
//   local_window_size w      = window [w - 1, 0]: w keys visible from absolute row i, i - w < j <= i
//                            (the query's own key counts; FlashAttention's and our left does not)
//   causal                   always on in the op, bottom-right (the S new rows are the last of P + S)
//   do_rotary                rotates only the new q and k, at positions P .. P + S - 1, with the cos and
//                            sin caches it is given: = rope(q, { offset: P }) and rope of every key, as
//                            long as past_key holds keys already rotated (the op's present_key does)
//   rotary_interleaved 0 / 1 = rope's interleaved false (halves) / true (adjacent pairs)
//   scale, softcap           the same: softcap * tanh(scale q k^T / softcap) before the masks
//   head size                the op wants d a multiple of 8; ours takes any d (even d for rope)
// Not in the op: a right window > 0, a non-causal or top-left mask, ALiBi; not compared.
// Node only: the browser project would have to serve onnxruntime-web's own .wasm and .mjs through
// Vite, and this comparison is about the numbers, not the engine (which the Node run already covers).
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';

const IN_NODE = typeof window === 'undefined' && typeof process !== 'undefined' && Boolean(process.versions?.node);

// Two float32 computations of the same softmax-weighted sums in different orders (MLAS's GEMMs and
// exp against ours), rope's angles from float32 caches on one side and float32 sin/cos of float64
// angles on the other: outputs of magnitude <= 1 agree to a few ulp at these sizes (T <= 40).
const TOLERANCE = { rtol: 2e-5, atol: 5e-6 };
// A mask off by one key moves some rows by far more than that: the sensitivity check asks for 1e-3.
const SENSITIVITY = 1e-3;

/** Rows [t0, t1) along axis 2 of x (B, X, T, d). */
function timeRows(x, t0, t1) {
  const [B, X, T, d] = x.shape;
  const data = new Float32Array(B * X * (t1 - t0) * d);
  for (let n = 0; n < B * X; n++) data.set(x.data.subarray((n * T + t0) * d, (n * T + t1) * d), n * (t1 - t0) * d);
  return { data, shape: [B, X, t1 - t0, d] };
}

/** (B, X, T, d) -> (B, T, X d): our head-major layout to the op's. */
function toOpLayout(x) {
  const [B, X, T, d] = x.shape;
  const out = new Float32Array(x.data.length);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < X; h++)
      for (let t = 0; t < T; t++) out.set(x.data.subarray(((b * X + h) * T + t) * d, ((b * X + h) * T + t + 1) * d), ((b * T + t) * X + h) * d);
  return out;
}

const CASES = [
  { name: 'grouped 4 over 2 heads, no window, no rotary, no past', B: 1, H: 4, Hkv: 2, S: 7, P: 0, d: 8, window: -1, rotary: false },
  { name: 'multi-query 4 over 1, window 3, no past', B: 2, H: 4, Hkv: 1, S: 12, P: 0, d: 16, window: 3, rotary: false },
  { name: 'heads 2 over 2, rotary halves, window 5, past 9', B: 1, H: 2, Hkv: 2, S: 6, P: 9, d: 16, window: 5, rotary: { interleaved: false } },
  { name: 'grouped 6 over 3, rotary interleaved, past 10, one new row', B: 2, H: 6, Hkv: 3, S: 1, P: 10, d: 16, window: -1, rotary: { interleaved: true } },
  {
    name: 'grouped 8 over 2, rotary halves, window 4, decode step against past 31',
    B: 1,
    H: 8,
    Hkv: 2,
    S: 1,
    P: 31,
    d: 32,
    window: 4,
    rotary: { interleaved: false },
  },
  {
    name: 'grouped 4 over 2, window 6, past 7, scale 0.5, softcap 1.5',
    B: 1,
    H: 4,
    Hkv: 2,
    S: 5,
    P: 7,
    d: 8,
    window: 6,
    rotary: false,
    scale: 0.5,
    softcap: 1.5,
  },
  {
    name: 'grouped 4 over 2, rotary interleaved, window 2, past 5, base 500',
    B: 1,
    H: 4,
    Hkv: 2,
    S: 4,
    P: 5,
    d: 16,
    window: 2,
    rotary: { interleaved: true, base: 500 },
  },
];

/** Inputs of one case in our layout: q (B, H, S, d), k and v (B, Hkv, P + S, d). */
function inputsOf({ B, H, Hkv, S, P, d }, seed) {
  const rand = seededRandom(seed);
  return { q: randomTensor(rand, [B, H, S, d]), k: randomTensor(rand, [B, Hkv, P + S, d]), v: randomTensor(rand, [B, Hkv, P + S, d]) };
}

/** The op's local_window_size w counts the query's own key: w keys visible, our window [w - 1, 0]. */
const leftOf = (localWindowSize) => (localWindowSize > 0 ? localWindowSize - 1 : -1);

/** Ours: rope (at the rows' absolute positions) then sdpa with bottom-right causal and the window [left, 0]. */
function ours(attn, c, { q, k, v }, left = leftOf(c.window)) {
  const ropeOptions = c.rotary && { interleaved: c.rotary.interleaved, base: c.rotary.base ?? 10000 };
  const qr = c.rotary ? attn.rope(q, { ...ropeOptions, offset: c.P }) : q;
  const kr = c.rotary ? attn.rope(k, ropeOptions) : k;
  const options = {
    causal: 'bottom-right',
    ...(left >= 0 ? { window: [left, 0] } : {}),
    ...(c.scale ? { scale: c.scale } : {}),
    ...(c.softcap ? { softcap: c.softcap } : {}),
  };
  return { output: attn.scaledDotProductAttention(qr, kr, v, options).output, keys: kr };
}

describe.skipIf(!IN_NODE)('GroupQueryAttention of onnxruntime-web (Node only: the browser project does not serve its .wasm)', () => {
  let ort;
  let groupQueryAttentionModel;
  beforeAll(async () => {
    ort = await import('onnxruntime-web');
    ({ groupQueryAttentionModel } = await import('../../../tools/bench/lib/onnx-gqa.mjs'));
    ort.env.wasm.numThreads = 1;
  });

  /** The op's output (B, S, H d) and present_key (B, Hkv, P + S, d), given our keys rotated or not. */
  async function theirs(c, { q, k, v }, keysForPast) {
    const session = await ort.InferenceSession.create(groupQueryAttentionModel({ ...c, present: true }), { executionProviders: ['wasm'] });
    const { B, H, Hkv, S, P, d } = c;
    const feeds = {
      query: new ort.Tensor('float32', toOpLayout(q), [B, S, H * d]),
      key: new ort.Tensor('float32', toOpLayout(timeRows(k, P, P + S)), [B, S, Hkv * d]),
      value: new ort.Tensor('float32', toOpLayout(timeRows(v, P, P + S)), [B, S, Hkv * d]),
    };
    if (P > 0) {
      feeds.past_key = new ort.Tensor('float32', timeRows(keysForPast, 0, P).data, [B, Hkv, P, d]);
      feeds.past_value = new ort.Tensor('float32', timeRows(v, 0, P).data, [B, Hkv, P, d]);
    }
    const out = await session.run(feeds);
    await session.release();
    return { output: out.output.data, presentKey: out.present_key.data };
  }

  describe.each(BACKENDS)('$backend', (backend) => {
    let attn;
    beforeAll(async () => {
      attn = await loadBackend(backend);
    });

    it.each(CASES)('GroupQueryAttention with local_window_size w equals rope and sdpa with window [w - 1, 0], bottom-right: $name', async (c) => {
      const inputs = inputsOf(c, 12);
      const mine = ours(attn, c, inputs);
      const op = await theirs(c, inputs, mine.keys);
      expectClose(op.output, { data: toOpLayout(mine.output), shape: [op.output.length] }, { ...TOLERANCE, label: 'output' });
      // The op stores the new keys rotated: its present_key is our rope of every key.
      expectClose(op.presentKey, mine.keys, { ...TOLERANCE, label: 'present_key' });
    });

    it.each(CASES.filter((c) => c.window >= 0))('a window one key wider or narrower than local_window_size - 1 differs from the op: $name', async (c) => {
      const inputs = inputsOf(c, 12);
      const op = await theirs(c, inputs, ours(attn, c, inputs).keys);
      for (const left of [leftOf(c.window) - 1, leftOf(c.window) + 1]) {
        const y = toOpLayout(ours(attn, c, inputs, left).output);
        const worst = y.reduce((m, x, i) => Math.max(m, Math.abs(x - op.output[i])), 0);
        expect(worst, `window [${left}, 0] against local_window_size ${c.window}`).toBeGreaterThan(SENSITIVITY);
      }
    });

    it('rotary halves and interleaved pairs are not interchangeable against the op', async () => {
      const c = CASES.find((x) => x.rotary && !x.rotary.interleaved);
      const inputs = inputsOf(c, 12);
      const op = await theirs(c, inputs, ours(attn, c, inputs).keys);
      const swapped = { ...c, rotary: { interleaved: true } };
      const y = toOpLayout(ours(attn, swapped, inputs).output);
      const worst = y.reduce((m, x, i) => Math.max(m, Math.abs(x - op.output[i])), 0);
      expect(worst).toBeGreaterThan(SENSITIVITY);
    });
  });

  it('GroupQueryAttention refuses a head size that is not a multiple of 8 (ours takes it)', async () => {
    const c = { B: 1, H: 2, Hkv: 1, S: 3, P: 0, d: 4, window: -1, rotary: false };
    await expect(theirs(c, inputsOf(c, 3))).rejects.toThrow(/multiple of 8/);
  });
});
