// Hardening (issue 8, "no input can corrupt the module"): each case below once trapped the module,
// wrote outside its arena, or returned a silent wrong answer. Each now gets a TypeError or
// RangeError naming the argument, or the right answer, and the module keeps computing correctly.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { loadModule } from '../../../web/src/boundary/loader.js';
import { withArena } from '../../../web/src/boundary/memory.js';
import { callEntry } from '../../../web/src/boundary/packed.js';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, randomTensor, seededRandom } from '../support/numeric.js';
import { sdpaReference } from '../../reference/index.js';
import { thrown } from '../support/thrown.js';

// One float32 rounding per step of a short row: far below the 1e-3 a wrong mask or row would miss by.
const CLOSE = { atol: 1e-5, rtol: 1e-5 };

/** A small attention checked against the float64 reference: the module still computes correctly. */
function expectStillWorks(attn, label) {
  const rand = seededRandom(77);
  const q = randomTensor(rand, [1, 2, 5, 4]);
  const k = randomTensor(rand, [1, 1, 6, 4]);
  const v = randomTensor(rand, [1, 1, 6, 3]);
  const expected = sdpaReference(q, k, v, { causal: 'bottom-right' });
  const got = attn.scaledDotProductAttention(q, k, v, { causal: 'bottom-right' });
  expectClose(got.output, { data: expected.out, shape: [1, 2, 5, 3] }, { ...CLOSE, label });
}

describe.each(BACKENDS)('hardening ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  describe('sizes', () => {
    it("attention({ scoring: 'additive' }) with Tq = Tk = hidden = 23168 is a RangeError naming the scratch, not a trap", () => {
      // The additive scratch is ~2^32 floats here: summed in wasm32's size_t it wrapped to 194576.
      const n = 23168;
      const column = { data: new Float32Array(n), shape: [n, 1] };
      const row = { data: new Float32Array(n), shape: [1, n] };
      const params = { wq: row, wk: row, wv: new Float32Array(n) };
      const error = thrown(() => attn.attention(column, column, column, { scoring: 'additive', params }));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toMatch(/^attention needs .* MiB of wasm memory \(scratch alone/);
      expectStillWorks(attn, 'after the huge additive call');
    });
  });

  describe('inputs read once', () => {
    it('a data getter that returns a short array, then a long one, is caught: maskedSoftmax writes only its own block', () => {
      let reads = 0;
      const x = {
        shape: [4, 64],
        get data() {
          reads += 1;
          return new Float32Array(reads === 1 ? 4 : 256);
        },
      };
      const error = thrown(() => attn.maskedSoftmax(x));
      expect(reads).toBe(1);
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toMatch('maskedSoftmax: x: data has 4 elements but shape [4, 64] needs 256');
      expectStillWorks(attn, 'after the data getter');
    });

    it('a Proxy whose data changes between reads gives the same answer as its first data, or an error', () => {
      const rand = seededRandom(5);
      const k = randomTensor(rand, [1, 1, 6, 4]);
      const v = randomTensor(rand, [1, 1, 6, 3]);
      const q = randomTensor(rand, [1, 1, 5, 4]);
      let reads = 0;
      const hostile = new Proxy(q, {
        get(target, key) {
          if (key !== 'data') return target[key];
          reads += 1;
          return reads === 1 ? target.data : new Float32Array(2);
        },
      });
      const expected = sdpaReference(q, k, v);
      const got = attn.scaledDotProductAttention(hostile, k, v);
      expect(reads).toBe(1);
      expectClose(got.output, { data: expected.out, shape: [1, 1, 5, 3] }, { ...CLOSE, label: 'output' });
    });

    it("an input detached after its check (by a later argument's getter) is a RangeError where the arena is filled", () => {
      const detach = (array) => structuredClone(array.buffer, { transfer: [array.buffer] }); // length 0 from then on
      const y = { data: new Float32Array(64).fill(1 / 8), shape: [8, 8] };
      const dy = {
        shape: [8, 8],
        get data() {
          detach(y.data);
          return new Float32Array(64);
        },
      };
      const error = thrown(() => attn.maskedSoftmaxBackward(y, dy));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toMatch(/^maskedSoftmaxBackward: y holds 0 elements now but its shape \[8, 8\] needs 64/);
      const rand = seededRandom(6);
      const q = randomTensor(rand, [1, 1, 4, 4]);
      const k = {
        shape: [1, 1, 4, 4],
        get data() {
          detach(q.data);
          return new Float32Array(16);
        },
      };
      const sdpaError = thrown(() => attn.scaledDotProductAttention(q, k, randomTensor(rand, [1, 1, 4, 4])));
      expect(sdpaError).toBeInstanceOf(RangeError);
      expect(sdpaError.message).toMatch(/^scaledDotProductAttention: q holds 0 elements now but its shape \[1, 1, 4, 4\] needs 16/);
      expectStillWorks(attn, 'after the detached inputs');
    });

    it('a typed array whose own length property lies is measured by its real length', () => {
      const data = new Float32Array(4);
      Object.defineProperty(data, 'length', { value: 64 });
      Object.defineProperty(data, 'byteLength', { value: 256 });
      const error = thrown(() => attn.maskedSoftmax({ data, shape: [8, 8] }));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toMatch(/maskedSoftmax: x: data has 4 elements but shape \[8, 8\] needs 64/);
      expectStillWorks(attn, 'after the lying length');
    });

    it('a typed array with its own findIndex or slice can neither hide a NaN nor change a copy', () => {
      const mask = Float32Array.of(0, NaN, 0, 0);
      mask.findIndex = () => -1;
      const q = [[1, 2, 3, 4]];
      const k = [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ];
      const error = thrown(() => attn.scaledDotProductAttention(q, k, k, { attnMask: { data: mask, shape: [1, 4] } }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/attnMask must hold finite numbers or -Infinity, got NaN at flat index 1/);
      const wq = Float32Array.of(1, 2, 3, 4);
      wq.slice = () => new Float32Array(1);
      const layer = attn.selfAttention({
        wq: { data: wq, shape: [2, 2] },
        wk: [
          [1, 0],
          [0, 1],
        ],
        wv: [
          [1, 0],
          [0, 1],
        ],
      });
      expect(layer.parameters().wq.data).toEqual(Float32Array.of(1, 2, 3, 4));
    });
  });

  describe('options that overflow float32', () => {
    const x = { data: Float32Array.of(1, 2, 3, 4), shape: [1, 4] };
    it.each([
      ['maskFill: 1e39', 'maskedSoftmax', (a) => a.maskedSoftmax(x, { maskFill: 1e39, validLens: [2] }), /maskFill/],
      ['maskFill: -1e39 with validLens [0]', 'maskedSoftmax', (a) => a.maskedSoftmax(x, { maskFill: -1e39, validLens: [0] }), /maskFill/],
      ['scale: 1e39', 'scaledDotProductAttention', (a) => a.scaledDotProductAttention(x, x, x, { scale: 1e39 }), /scale/],
      ['scale: 1e-46 (0 in float32)', 'scaledDotProductAttention', (a) => a.scaledDotProductAttention(x, x, x, { scale: 1e-46 }), /scale/],
      ['softcap: 1e39', 'scaledDotProductAttention', (a) => a.scaledDotProductAttention(x, x, x, { softcap: 1e39 }), /softcap/],
      ['attention scale: 1e39', 'attention', (a) => a.attention(x, x, x, { scoring: 'concat', params: { w: new Float32Array(8) }, scale: 1e39 }), /scale/],
      ['selfAttention scale: 1e39', 'selfAttention', (a) => a.selfAttention({ dIn: 4, scale: 1e39 }), /scale/],
      [
        'step learningRate: 1e39',
        'step',
        (a) => {
          const layer = a.selfAttention({ dIn: 4 });
          layer.forward(x);
          layer.backward({ data: new Float32Array(4), shape: [1, 4] });
          layer.step(1e39);
        },
        /learningRate/,
      ],
    ])('%s is a RangeError naming the option', (_, fn, call, option) => {
      const error = thrown(() => call(attn));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toMatch(option);
      expect(error.message).toMatch(/float32/);
      expectStillWorks(attn, `after ${fn}`);
    });

    it('the binding checks options again after their conversion to float32', async () => {
      const { module } = await loadModule({ simd: build.simd });
      const mask = { validLensPerRow: false, causal: 0, strideB: 0, strideH: 0, strideI: 0, strideJ: 0, useFill: true, fill: -1e39 };
      const args = { B: 1, H: 1, Tq: 1, Tk: 4, mask };
      const error = thrown(() =>
        withArena(module, 'direct', { x: Float32Array.of(1, 2, 3, 4), y: 'x' }, (buffers) => callEntry(module, 'maskedSoftmaxForward', args, buffers)),
      );
      expect(error).toBeInstanceOf(RangeError);
      expect(error.message).toMatch(/maskedSoftmaxForward: fill must be finite in float32/);
      const sdpa = { B: 1, H: 1, Hkv: 1, Tq: 1, Tk: 1, d: 1, dv: 1, scale: 1e39, softcap: 0, dropout: 0, seed: 0, mask: { ...mask, useFill: false } };
      const blocks = { q: Float32Array.of(1), k: Float32Array.of(1), v: Float32Array.of(1), out: 1, scratch: 4096 };
      const scaleError = thrown(() => withArena(module, 'direct', blocks, (buffers) => callEntry(module, 'sdpaForward', sdpa, buffers)));
      expect(scaleError?.message).toMatch(/sdpaForward: scale must be finite and > 0 in float32/);
    });
  });

  describe('a polluted Object.prototype', () => {
    afterEach(() => {
      for (const key of [
        'boolMask',
        'causal',
        'returnWeights',
        'floatMask',
        'validLens',
        'scratch',
        'threads',
        'simd',
        'inlineBelow',
        'window',
        'alibi',
        'rope',
        'base',
        'offset',
        'maxLength',
        '1',
      ]) {
        delete Object.prototype[key];
      }
    });

    it('a numeric Object.prototype[1] changes no shape check (a free axis has no size to read)', () => {
      const rand = seededRandom(11);
      const q = randomTensor(rand, [1, 2, 4, 4]);
      const clean = attn.scaledDotProductAttention(q, q, q);
      Object.prototype[1] = 0;
      const polluted = attn.scaledDotProductAttention(q, q, q);
      delete Object.prototype[1];
      expect(Array.from(polluted.output.data)).toEqual(Array.from(clean.output.data));
    });

    it('Object.prototype.boolMask (and other option names) change no result', () => {
      const rand = seededRandom(9);
      const q = randomTensor(rand, [1, 1, 3, 4]);
      const k = randomTensor(rand, [1, 1, 5, 4]);
      const v = randomTensor(rand, [1, 1, 5, 2]);
      const clean = attn.scaledDotProductAttention(q, k, v);
      const cleanSoftmax = attn.maskedSoftmax(q);
      Object.prototype.boolMask = 1;
      Object.prototype.floatMask = 1;
      Object.prototype.causal = true;
      Object.prototype.validLens = [1];
      const polluted = attn.scaledDotProductAttention(q, k, v);
      const pollutedSoftmax = attn.maskedSoftmax(q);
      const layer = attn.selfAttention({ dIn: 4 });
      expect(layer.forward({ data: q.data, shape: [3, 4] }).output.shape).toEqual([3, 4]);
      expect(polluted.output.data).toEqual(clean.output.data);
      expect(pollutedSoftmax.data).toEqual(cleanSoftmax.data);
    });

    it('Object.prototype.window, .alibi, .rope and their fields change no result', () => {
      const rand = seededRandom(10);
      const q = randomTensor(rand, [1, 2, 4, 4]);
      const x = { data: q.data, shape: [8, 4] };
      const layerOptions = { dModel: 4, heads: 2, causal: true, seed: 1 };
      const clean = attn.scaledDotProductAttention(q, q, q);
      const cleanSoftmax = attn.maskedSoftmax(q, { window: [1, -1] });
      const cleanRope = attn.rope(q);
      const cleanLayer = attn.multiHeadAttention(layerOptions).forward(x).output;
      const cleanCache = attn.multiHeadAttention(layerOptions).createCache();
      Object.prototype.window = [0, 0];
      Object.prototype.alibi = true;
      Object.prototype.rope = true;
      Object.prototype.base = 2;
      Object.prototype.offset = 5;
      Object.prototype.maxLength = 1;
      expect(attn.scaledDotProductAttention(q, q, q).output.data).toEqual(clean.output.data);
      expect(attn.maskedSoftmax(q, { window: [1, -1] }).data).toEqual(cleanSoftmax.data);
      expect(attn.rope(q).data).toEqual(cleanRope.data);
      expect(attn.multiHeadAttention(layerOptions).forward(x).output.data).toEqual(cleanLayer.data);
      expect(attn.multiHeadAttention(layerOptions).createCache().maxLength).toBe(cleanCache.maxLength);
      const hole = [1];
      hole.length = 2; // [1, <empty>]: a missing side, not one read from a prototype
      expect(thrown(() => attn.maskedSoftmax(q, { window: hole }))?.message).toMatch(/window\[1\] \(right\) must be an integer >= -1/);
    });

    it('a polluted threads, simd or inlineBelow does not change what loadAttention loads', async () => {
      Object.prototype.threads = 2;
      Object.prototype.simd = 'yes';
      Object.prototype.inlineBelow = -1;
      const loaded = await loadAttention();
      expect(Object.hasOwn(loaded, 'threads')).toBe(false); // the synchronous API, not a pool
      expectStillWorks(loaded, 'loaded under a polluted prototype');
    });

    it("scoring: 'toString' (an inherited name) is a TypeError listing the scorings", () => {
      const x = [[1, 2]];
      for (const scoring of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
        const error = thrown(() => attn.attention(x, x, x, { scoring }));
        expect(error).toBeInstanceOf(TypeError);
        expect(error.message).toMatch(/attention: scoring must be one of 'dot', 'scaled-dot', 'general', 'additive', 'concat'/);
      }
    });

    it('options that are not plain own properties are ignored, never read from the prototype', () => {
      const x = { data: Float32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] };
      const inherited = Object.create({ causal: true, validLens: [1, 1] });
      expect(attn.maskedSoftmax(x, inherited).data).toEqual(attn.maskedSoftmax(x).data);
    });
  });

  describe('backward calls', () => {
    const x = [
      [1, 2],
      [3, 4],
    ];
    it.each([
      ['scaledDotProductAttentionBackward', '', (a, o) => a.scaledDotProductAttentionBackward(x, x, x, x, o)],
      ['attentionBackward', '', (a, o) => a.attentionBackward(x, x, x, x, o)],
      [
        'attentionBackward',
        " with scoring 'additive'",
        (a, o) => a.attentionBackward(x, x, x, x, { scoring: 'additive', params: { wq: [[1], [1]], wk: [[1], [1]], wv: [1] }, ...o }),
      ],
    ])('%s%s rejects the forward-only options trace, returnWeights and returnLse', (fn, _, call) => {
      for (const option of ['trace', 'returnWeights', 'returnLse']) {
        const error = thrown(() => call(attn, { [option]: 'yes' }));
        expect(error).toBeInstanceOf(TypeError);
        expect(error.message).toMatch(new RegExp(`^${fn}: unknown option '${option}'`));
      }
    });
  });
});

describe('a module that heals', () => {
  it.each(BACKENDS)('after a trap ($backend) the caller is told the module was reset, and the next call runs on a fresh instance', async (build) => {
    const attn = await loadBackend(build);
    const { module: before } = await loadModule({ simd: build.simd });
    // A stack pointer of 0: the next call's first stack frame lies below address 0, a wasm trap.
    before.stackRestore(0);
    const x = { data: Float32Array.of(1, 2, 3, 4), shape: [2, 2] };
    const error = thrown(() => attn.maskedSoftmax(x));
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/maskedSoftmax: the wasm module trapped .*it was reset/);
    expect(error.cause).toBeInstanceOf(WebAssembly.RuntimeError);
    expectStillWorks(attn, 'the same API object after the reset');
    const { module: after } = await loadModule({ simd: build.simd });
    expect(after).not.toBe(before);
    expectStillWorks(await loadAttention({ simd: build.simd }), 'a fresh loadAttention() after the reset');
    const layer = attn.selfAttention({ dIn: 2 });
    expect(layer.forward(x).output.shape).toEqual([2, 2]);
  });
});
