// The layers' KV cache (issue 12): rows fed in pieces through layer.forward(xNew, { cache }) give the
// matching rows of one causal forward over the whole sequence (with GQA, RoPE, a window and ALiBi);
// the cache grows by doubling, stops at its maxLength, and belongs to one layer and one batch size.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from './backends.js';
import { expectClose, randomTensor, seededRandom } from './numeric.js';

// The cached path sums Wo's product in float64 (the full forward in float32, in another order) and
// runs sdpa over (T_new, L) instead of (T, T): a few ulp of outputs of magnitude ~1.
const TOLERANCE = { rtol: 1e-5, atol: 2e-6 };

/** Rows [t0, t1) of x (B, T, d) as a (B, t1 - t0, d) tensor. */
function rows(x, t0, t1) {
  const [B, T, d] = x.shape;
  const data = new Float32Array(B * (t1 - t0) * d);
  for (let b = 0; b < B; b++) data.set(x.data.subarray((b * T + t0) * d, (b * T + t1) * d), b * (t1 - t0) * d);
  return { data, shape: [B, t1 - t0, d] };
}

/** Joins (B, t, d) pieces along t. */
function joinRows(pieces) {
  const [B, , d] = pieces[0].shape;
  const T = pieces.reduce((n, p) => n + p.shape[1], 0);
  const data = new Float32Array(B * T * d);
  let t0 = 0;
  for (const p of pieces) {
    const t = p.shape[1];
    for (let b = 0; b < B; b++) data.set(p.data.subarray(b * t * d, (b + 1) * t * d), (b * T + t0) * d);
    t0 += t;
  }
  return { data, shape: [B, T, d] };
}

const LAYERS = [
  ['selfAttention, causal, one token at a time', (a) => a.selfAttention({ dIn: 6, dQ: 4, dOut: 5, causal: true, seed: 1 }), [2, 7, 6], [1, 1, 1, 1, 1, 1, 1]],
  [
    'multiHeadAttention, 4 heads over 2, rope, window [3, 0], alibi true, in pieces',
    (a) => a.multiHeadAttention({ dModel: 16, heads: 4, kvHeads: 2, causal: true, rope: true, window: [3, 0], alibi: true, seed: 2 }),
    [2, 9, 16],
    [4, 1, 1, 3],
  ],
  [
    'multiHeadAttention, multi-query, interleaved rope, past the first capacity (17 rows)',
    (a) => a.multiHeadAttention({ dModel: 8, heads: 2, kvHeads: 1, causal: true, rope: { interleaved: true, base: 100 }, seed: 3 }),
    [1, 17, 8],
    [5, 11, 1],
  ],
];

describe.each(BACKENDS)('the KV cache of the layers ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  it.each(LAYERS)('%s: the rows equal one forward over the whole sequence', (label, make, shape, pieces) => {
    const layer = make(attn);
    const x = randomTensor(seededRandom(shape[1]), shape);
    const full = layer.forward(x, { trace: false }).output;
    const cache = layer.createCache();
    const outputs = [];
    let t0 = 0;
    for (const n of pieces) {
      outputs.push(layer.forward(rows(x, t0, t0 + n), { cache }).output);
      t0 += n;
      expect(cache.length).toBe(t0);
    }
    expectClose(joinRows(outputs), full, { ...TOLERANCE, label });
  });

  it('grows by doubling and stops at its maxLength with a RangeError', () => {
    const layer = attn.selfAttention({ dIn: 2, dQ: 2, dOut: 2, causal: true, seed: 4 });
    const cache = layer.createCache({ maxLength: 40 });
    expect(cache.capacity).toBe(0);
    layer.forward(randomTensor(seededRandom(1), [1, 3, 2]), { cache });
    expect(cache.capacity).toBe(16);
    layer.forward(randomTensor(seededRandom(2), [1, 14, 2]), { cache });
    expect([cache.length, cache.capacity]).toEqual([17, 32]);
    layer.forward(randomTensor(seededRandom(3), [1, 20, 2]), { cache });
    expect([cache.length, cache.capacity]).toEqual([37, 40]); // doubling capped at maxLength
    expect(() => layer.forward(randomTensor(seededRandom(4), [1, 4, 2]), { cache })).toThrow(/cache.*maxLength 40/);
    expect(cache.length).toBe(37); // the failed call added nothing
  });

  it('a cache used with another layer or another batch size is refused, naming the cache', () => {
    const one = attn.selfAttention({ dIn: 2, dQ: 2, dOut: 2, causal: true, seed: 5 });
    const other = attn.selfAttention({ dIn: 2, dQ: 2, dOut: 2, causal: true, seed: 5 });
    const cache = one.createCache();
    one.forward(randomTensor(seededRandom(5), [2, 3, 2]), { cache });
    expect(() => other.forward(randomTensor(seededRandom(6), [2, 1, 2]), { cache })).toThrow(TypeError);
    expect(() => other.forward(randomTensor(seededRandom(6), [2, 1, 2]), { cache })).toThrow(/cache.*another layer/);
    expect(() => one.forward(randomTensor(seededRandom(7), [3, 1, 2]), { cache })).toThrow(RangeError);
    expect(() => one.forward(randomTensor(seededRandom(7), [3, 1, 2]), { cache })).toThrow(/cache.*B = 2.*B = 3/);
    expect(() => one.forward(randomTensor(seededRandom(7), [2, 1, 2]), { cache: {} })).toThrow(/cache must be an object from layer.createCache/);
    expect(() => one.createCache({ maxLength: 0 })).toThrow(/maxLength/);
    expect(() => one.forward(randomTensor(seededRandom(7), [2, 1, 2]), { cache, validLens: [1, 1] })).toThrow(TypeError);
    expect(cache.length).toBe(3);
  });
});
