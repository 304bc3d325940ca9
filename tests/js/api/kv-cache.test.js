// The layers' KV cache (issue 12): rows fed in pieces through layer.forward(xNew, { cache }) give the
// matching rows of one causal forward over the whole sequence (with GQA, RoPE, a window and ALiBi);
// the cache grows by doubling, stops at its maxLength, and belongs to one layer and one batch size.
// Its rows live in wasm memory between calls and are checked once, when appended: a refused call
// (NaN in xNew, an overflow, maxLength) leaves the cache exactly as it was, and it keeps working.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { layerReference } from '../../reference/index.js';

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

  /** Feeds x (B, T, d) through `cache` in `pieces` rows at a time; -> the outputs joined along T. */
  function feed(layer, cache, x, pieces) {
    const outputs = [];
    let t0 = cache.length;
    for (const n of pieces) {
      outputs.push(layer.forward(rows(x, t0, t0 + n), { cache }).output);
      t0 += n;
    }
    return joinRows(outputs);
  }

  it('a cache after 70 one-row steps, across four doublings, equals one forward over the whole sequence', () => {
    const layer = attn.multiHeadAttention({ dModel: 16, heads: 4, kvHeads: 2, causal: true, rope: true, alibi: true, seed: 8 });
    const x = randomTensor(seededRandom(70), [2, 70, 16]);
    const full = layer.forward(x, { trace: false }).output;
    const cache = layer.createCache();
    const capacities = [];
    const outputs = [];
    for (let t = 0; t < 70; t++) {
      outputs.push(layer.forward(rows(x, t, t + 1), { cache }).output);
      if (capacities.at(-1) !== cache.capacity) capacities.push(cache.capacity);
    }
    expect(capacities).toEqual([16, 32, 64, 128]);
    expectClose(joinRows(outputs), full, { ...TOLERANCE, label: '70 steps' });
  });

  it('40 one-row steps of grouped heads equal the float64 reference layer (reference.js)', () => {
    const layer = attn.multiHeadAttention({ dModel: 8, heads: 4, kvHeads: 2, causal: true, seed: 13 });
    const x = randomTensor(seededRandom(40), [1, 40, 8]);
    const weights = Object.fromEntries(Object.entries(layer.parameters()).map(([name, t]) => [name, t.data]));
    const dims = { B: 1, T: 40, dIn: 8, dQ: 2, dV: 2, heads: 4, kvHeads: 2, dOut: 8 };
    const expected = layerReference(dims, weights, x.data, { scale: 1 / Math.sqrt(2), causal: true });
    const got = feed(layer, layer.createCache(), x, Array(40).fill(1));
    expectClose(got, { data: expected.out, shape: [1, 40, 8] }, { ...TOLERANCE, label: 'against float64' });
  });

  it('a NaN in xNew is refused naming x, and the cache is unchanged and keeps working', () => {
    const layer = attn.multiHeadAttention({ dModel: 8, heads: 2, causal: true, rope: true, seed: 9 });
    const x = randomTensor(seededRandom(9), [1, 20, 8]);
    const full = layer.forward(x, { trace: false }).output;
    const cache = layer.createCache();
    const first = feed(layer, cache, x, [15]); // one short of a doubling: the refused call would grow it
    const bad = rows(x, 15, 17);
    bad.data[11] = NaN;
    const before = bad.data.slice();
    expect(() => layer.forward(bad, { cache })).toThrow(TypeError);
    expect(() => layer.forward(bad, { cache })).toThrow(/multiHeadAttention.forward: x must hold finite numbers, got NaN at flat index 11/);
    expect(bad.data).toEqual(before); // inputs are never changed
    expect([cache.length, cache.capacity]).toEqual([15, 16]);
    const rest = feed(layer, cache, x, [2, 3]);
    expectClose(joinRows([first, rest]), full, { ...TOLERANCE, label: 'after the NaN' });
  });

  it('an overflow in the new rows is a RangeError that appends nothing, even when the call grew the cache', () => {
    const layer = attn.selfAttention({ dIn: 4, dQ: 4, dOut: 4, causal: true, seed: 10 });
    const x = randomTensor(seededRandom(10), [1, 20, 4]);
    const full = layer.forward(x, { trace: false }).output;
    const cache = layer.createCache();
    const first = feed(layer, cache, x, [16]);
    const huge = rows(x, 16, 18);
    huge.data.fill(3e38); // finite, but x Wk and x Wv overflow float32
    expect(() => layer.forward(huge, { cache })).toThrow(RangeError);
    expect(() => layer.forward(huge, { cache })).toThrow(/selfAttention.forward: an intermediate overflowed float32/);
    expect(cache.length).toBe(16);
    const rest = feed(layer, cache, x, [1, 3]);
    expectClose(joinRows([first, rest]), full, { ...TOLERANCE, label: 'after the overflow' });
  });

  it('a key that overflows to -Infinity is refused even though its weight 0 leaves the output finite', () => {
    const eye = (scale) => ({ data: Float32Array.from([scale, 0, 0, scale]), shape: [2, 2] });
    const layer = attn.selfAttention({ wq: eye(1e-38), wk: eye(-2), wv: eye(1e-38), causal: true });
    const cache = layer.createCache();
    layer.forward({ data: Float32Array.from([1, 2, 3, 4]), shape: [1, 2, 2] }, { cache });
    // x Wq = 3 and x Wv = 3 (finite), x Wk = -6e38 (-Infinity in float32): q . k = -Infinity.
    const x = { data: Float32Array.from([3e38, 3e38]), shape: [1, 1, 2] };
    expect(() => layer.forward(x, { cache })).toThrow(/selfAttention.forward: an intermediate overflowed float32/);
    expect(cache.length).toBe(2);
  });

  it("a layer's cache used after errors of every kind still gives the full forward's rows", () => {
    const layer = attn.multiHeadAttention({ dModel: 8, heads: 2, kvHeads: 1, causal: true, window: [4, 0], seed: 11 });
    const x = randomTensor(seededRandom(11), [2, 12, 8]);
    const full = layer.forward(x, { trace: false }).output;
    const cache = layer.createCache({ maxLength: 12 });
    const first = feed(layer, cache, x, [5]);
    expect(() => layer.forward(rows(x, 5, 6), { cache, validLens: [1, 1] })).toThrow(TypeError);
    expect(() => layer.forward(rows(x, 5, 6), { cache, trace: true })).toThrow(TypeError);
    expect(() => layer.forward(randomTensor(seededRandom(1), [3, 1, 8]), { cache })).toThrow(/B = 2.*B = 3/);
    expect(() => layer.forward(randomTensor(seededRandom(1), [2, 1, 7]), { cache })).toThrow(RangeError);
    expect(() => layer.forward(rows(x, 5, 12).data, { cache })).toThrow(RangeError); // rank 1
    expect(() => layer.forward(randomTensor(seededRandom(1), [2, 8, 8]), { cache })).toThrow(/maxLength 12/);
    expect(cache.length).toBe(5);
    const rest = feed(layer, cache, x, [1, 4, 2]);
    expectClose(joinRows([first, rest]), full, { ...TOLERANCE, label: 'after the errors' });
  });

  it('the whole-sequence forward, backward and step of a layer still work while it has a cache', () => {
    const layer = attn.selfAttention({ dIn: 3, dQ: 2, dOut: 3, causal: true, seed: 12 });
    const x = randomTensor(seededRandom(12), [1, 6, 3]);
    const cache = layer.createCache();
    feed(layer, cache, x, [3]);
    const { output } = layer.forward(x, { trace: false });
    layer.backward({ data: new Float32Array(output.data.length).fill(1), shape: output.shape });
    layer.step(0.1);
    // The cache holds the old weights' rows: it refuses to go on (kv-cache-lifetime.test.js), a fresh one decodes.
    expect(() => layer.forward(rows(x, 3, 4), { cache })).toThrow(/earlier weights \(step\(\) changed them since\)/);
    const fresh = layer.createCache();
    expectClose(feed(layer, fresh, x, [2, 4]), layer.forward(x, { trace: false }).output, { ...TOLERANCE, label: 'after a step' });
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
