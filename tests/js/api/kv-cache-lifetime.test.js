// The lifetime of a layer's KV cache (issue 37, finding 5): its rows live in wasm memory between
// calls, so they must come back when the caller is done with them, at once, even in a loop that
// never yields to the event loop (where no FinalizationRegistry callback can run); running out of
// memory must name the caches that hold it; and a cache must not go on with k and v rows of weights
// the layer no longer has.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { loadModule } from '../../../web/src/boundary/loader.js';
import { heldMemory } from '../../../web/src/boundary/memory.js';
import { selfAttention } from '../../../web/src/ops/layers.js';
import { BACKENDS, heapState, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { thrown } from '../support/thrown.js';

// As in kv-cache.test.js: the cached path and the full forward round in different orders.
const TOLERANCE = { rtol: 1e-5, atol: 2e-6 };
const MIB = 2 ** 20;

// Caches of 8 kv heads (B 4 x Hkv 2) of widths 16 + 16: 16 rows (the first capacity) hold 32 KiB.
const LAYER = { dModel: 64, heads: 4, kvHeads: 2, causal: true, rope: true, seed: 3 };
const STEP = randomTensor(seededRandom(1), [4, 1, 64]);

/** `steps` one-row decode steps of `layer` through `cache`. */
function decode(layer, cache, steps) {
  for (let t = 0; t < steps; t++) layer.forward(STEP, { cache });
}

describe.each(BACKENDS)('the lifetime of a KV cache ($backend)', (build) => {
  let attn;
  let runtime;
  beforeAll(async () => {
    attn = await loadBackend(build);
    ({ runtime } = await loadModule({ simd: build.simd }));
  });

  it('cache.dispose() frees its rows at once: 300 caches of 8 decode steps in a loop that never awaits leave wasm memory as it was', () => {
    const layer = attn.multiHeadAttention(LAYER);
    const warm = layer.createCache();
    decode(layer, warm, 8);
    warm.dispose();
    const before = heapState(runtime.module);
    for (let i = 0; i < 300; i++) {
      const cache = layer.createCache();
      decode(layer, cache, 8);
      cache.dispose();
    }
    // Without dispose(), 300 x 32 KiB (9.4 MiB) would still be held here: nothing awaited, so no cache was finalized.
    expect(heapState(runtime.module)).toEqual(before);
    expect(heldMemory(runtime.module).caches).toBe(0);
  });

  it("a layer's dispose() frees every cache it made: 100 layers with 3 caches each in a loop that never awaits leave wasm memory as it was", () => {
    const warm = attn.multiHeadAttention(LAYER);
    decode(warm, warm.createCache(), 8);
    warm.dispose();
    const before = heapState(runtime.module);
    const caches = [];
    for (let i = 0; i < 100; i++) {
      const layer = attn.multiHeadAttention(LAYER);
      for (let c = 0; c < 3; c++) {
        const cache = layer.createCache();
        decode(layer, cache, 1 + c);
        caches.push(cache); // still reachable: only the layer's dispose() can free them
      }
      layer.dispose();
    }
    expect(heapState(runtime.module)).toEqual(before);
    expect(caches.map((cache) => cache.length + cache.capacity)).toEqual(Array(300).fill(0));
    expect(() => caches[0].dispose()).not.toThrow(); // already freed with its layer
  });

  it('dispose() is idempotent, and a disposed cache refuses further use with an Error that says so', () => {
    const layer = attn.multiHeadAttention(LAYER);
    const cache = layer.createCache();
    decode(layer, cache, 3);
    cache.dispose();
    cache.dispose();
    expect([cache.length, cache.capacity, cache.maxLength]).toEqual([0, 0, 2 ** 20]);
    const error = thrown(() => layer.forward(STEP, { cache }));
    expect(error?.constructor).toBe(Error);
    expect(error?.message).toBe('multiHeadAttention.forward: cache: this cache was disposed by its dispose(); make a new one with createCache()');
    // The layer and its other caches carry on.
    const fresh = layer.createCache();
    decode(layer, fresh, 2);
    expect(fresh.length).toBe(2);
  });

  it("a cache of a disposed layer says it went with its layer; the layer's methods say the layer was disposed", () => {
    const layer = attn.selfAttention({ dIn: 4, causal: true, seed: 2 });
    const cache = layer.createCache();
    layer.forward(randomTensor(seededRandom(2), [1, 2, 4]), { cache });
    layer.dispose();
    expect(() => layer.forward(randomTensor(seededRandom(2), [1, 1, 4]), { cache })).toThrow('selfAttention.forward: this layer was disposed');
    expect(() => layer.createCache()).toThrow('selfAttention.createCache: this layer was disposed');
    expect(cache.length).toBe(0);
  });

  describe('weights changed between decode steps', () => {
    const x = randomTensor(seededRandom(5), [1, 6, 4]);
    const rowsOf = (t0, t1) => ({ data: x.data.slice(t0 * 4, t1 * 4), shape: [1, t1 - t0, 4] });
    const wv = randomTensor(seededRandom(6), [4, 4]);

    it('setParameters() between steps is a RangeError saying the cached rows hold the old weights; the cache keeps its rows', () => {
      const layer = attn.selfAttention({ dIn: 4, dQ: 4, dOut: 4, causal: true, seed: 5 });
      const cache = layer.createCache();
      layer.forward(rowsOf(0, 3), { cache });
      layer.setParameters({ wv });
      const error = thrown(() => layer.forward(rowsOf(3, 4), { cache }));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toBe(
        "selfAttention.forward: cache: its 3 rows hold k and v of the layer's earlier weights (setParameters() changed them since); " +
          'make a fresh cache with createCache() and feed the sequence again (dispose() this one)',
      );
      expect(cache.length).toBe(3);
      // A fresh cache decodes with the new weights: its rows equal one causal forward over the sequence.
      const fresh = layer.createCache();
      const pieces = [layer.forward(rowsOf(0, 3), { cache: fresh }).output, layer.forward(rowsOf(3, 6), { cache: fresh }).output];
      const joined = { data: Float32Array.of(...pieces[0].data, ...pieces[1].data), shape: [1, 6, 4] };
      expectClose(joined, layer.forward(x, { trace: false }).output, { ...TOLERANCE, label: 'fresh cache after setParameters' });
    });

    it('step() between steps is refused the same way, naming step()', () => {
      const layer = attn.selfAttention({ dIn: 4, dQ: 4, dOut: 4, causal: true, seed: 5 });
      const cache = layer.createCache();
      layer.forward(rowsOf(0, 2), { cache });
      const { output } = layer.forward(x, { trace: false });
      layer.backward({ data: new Float32Array(output.data.length).fill(1), shape: output.shape });
      layer.step(0.1);
      expect(() => layer.forward(rowsOf(2, 3), { cache })).toThrow(RangeError);
      expect(() => layer.forward(rowsOf(2, 3), { cache })).toThrow(/its 2 rows hold k and v of the layer's earlier weights \(step\(\) changed them since\)/);
    });

    it('an empty cache follows the weights, and a refused setParameters() changes nothing', () => {
      const layer = attn.selfAttention({ dIn: 4, dQ: 4, dOut: 4, causal: true, seed: 5 });
      const empty = layer.createCache();
      const held = layer.createCache();
      layer.forward(rowsOf(0, 2), { cache: held });
      expect(() => layer.setParameters({ wv: randomTensor(seededRandom(7), [4, 5]) })).toThrow(RangeError);
      layer.forward(rowsOf(2, 3), { cache: held }); // weights unchanged: the cache goes on
      layer.setParameters({ wv });
      layer.forward(rowsOf(0, 1), { cache: empty }); // it held no rows of the old weights
      expect([empty.length, held.length]).toEqual([1, 3]);
    });
  });

  describe('running out of wasm memory', () => {
    /**
     * `module` as if its memory could not grow past `limit` bytes: mallocs that would end beyond it
     * return 0, as Emscripten's malloc does at -sMAXIMUM_MEMORY (reaching the real 4 GiB in a test
     * would take a minute and gigabytes of the machine's memory).
     */
    function capped(module, limit) {
      return Object.create(module, {
        _malloc: {
          value: (bytes) => {
            const at = module._malloc(bytes) >>> 0;
            if (at === 0 || at + bytes <= limit) return at;
            module._free(at);
            return 0;
          },
        },
      });
    }

    it('the RangeError counts the live caches and their layers and their MiB, and after dispose() the freed memory is reused', () => {
      const module = capped(runtime.module, runtime.module.HEAPU8.length + 24 * MIB);
      const onCapped = { call: (fn, body) => body(module) };
      const options = { dIn: 64, dQ: 64, dOut: 64, causal: true, seed: 9 };
      const layers = [selfAttention(onCapped, options), selfAttention(onCapped, options)];
      const x = randomTensor(seededRandom(9), [8, 1, 64]);
      const cacheBytes = 8 * 16 * (64 + 64) * 4; // B 8 x Hkv 1 heads of 16 rows (the first capacity) of k and v
      /** Caches of one decode step each, dropped as made, until memory runs out: -> [caches made, the error]. */
      const fill = () => {
        for (let made = 0; ; made++) {
          const layer = layers[made % 2];
          const error = thrown(() => layer.forward(x, { cache: layer.createCache() }));
          if (error !== undefined) return [made, error];
        }
      };
      const [made, error] = fill();
      expect(made).toBeGreaterThan(200); // 24 MiB / 64 KiB = 384, less what the calls and the record take
      expect(error).toBeInstanceOf(RangeError);
      // The refused call's cache got its room before the call's arena did not: it is live too.
      const live = made + 1;
      expect(error.message).toMatch(
        new RegExp(
          `^selfAttention\\.forward(: cache of 16 rows)? needs [\\d.]+ MiB of wasm memory but the module could not grow to hold it ` +
            `\\(memory now \\d+ MiB, limit 4096 MiB; ${live} live KV caches of 2 layers hold ${((live * cacheBytes) / MIB).toFixed(0)} MiB of it, the largest 0\\.06 MiB\\): ` +
            'dispose the caches no longer needed \\(cache.dispose\\(\\), or layer.dispose\\(\\) for all of its caches; ' +
            'a cache dropped without dispose\\(\\) is freed only after garbage collection, once the event loop turns\\), or use smaller inputs$',
        ),
      );
      expect(heldMemory(module)).toMatchObject({ caches: live, layers: 2, bytes: live * cacheBytes });
      // Recovery: wasm memory cannot shrink, but what the caches held is reused for as many again.
      for (const layer of layers) layer.dispose();
      expect(heldMemory(module).caches).toBe(0);
      const grown = runtime.module.HEAPU8.length;
      layers.splice(0, 2, selfAttention(onCapped, options), selfAttention(onCapped, options));
      const [again] = fill();
      expect(again).toBe(made);
      expect(runtime.module.HEAPU8.length).toBe(grown);
      for (const layer of layers) layer.dispose();
    });
  });
});

describe('a KV cache and the worker pool', () => {
  let attn;
  let parallel;
  beforeAll(async () => {
    attn = await loadAttention({ simd: false });
    parallel = await loadAttention({ simd: false, threads: 1, inlineBelow: 0 });
  });
  afterAll(() => parallel?.dispose());

  it("a layer on a worker has no createCache, and refuses a synchronous layer's cache with a TypeError naming it", async () => {
    const remote = await parallel.selfAttention({ dIn: 4, causal: true, seed: 1 });
    expect('createCache' in remote).toBe(false);
    const cache = attn.selfAttention({ dIn: 4, causal: true, seed: 1 }).createCache();
    const x = randomTensor(seededRandom(1), [1, 1, 4]);
    await expect(remote.forward(x, { cache })).rejects.toThrow(TypeError);
    await expect(remote.forward(x, { cache })).rejects.toThrow(
      'selfAttention.forward: cache: a layer on a worker takes no KV cache (caches are made by the layers of loadAttention() without threads)',
    );
    expect((await remote.forward(x, { cache: undefined })).output.shape).toEqual([1, 1, 4]);
    await remote.dispose();
  });
});
