// The binding's one ABI, the packed record (cpp/bindings/packed.hpp, web/src/boundary/packed.js): every entry
// point reads its own record (a bad size in it is that entry's own RangeError), computes what the
// public API computes, rejects a record that does not lie in wasm memory, and no Embind
// value_object entry point is left.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { loadModule } from '../../../web/src/boundary/loader.js';
import { NO_BUFFERS } from '../../../web/src/boundary/buffers.js';
import { withArena } from '../../../web/src/boundary/memory.js';
import { callEntry, callQuery } from '../../../web/src/boundary/packed.js';
import { BACKENDS } from '../support/backends.js';
import { randomTensor, seededRandom } from '../support/numeric.js';

const MASK = { validLensPerRow: false, causal: 1, strideB: 0, strideH: 0, strideI: 0, strideJ: 0, useFill: false, fill: 0, windowLeft: -1, windowRight: -1 };
const [B, H, Tq, Tk, d] = [2, 2, 3, 5, 4];
const SDPA = { B, H, Hkv: 1, Tq, Tk, d, dv: d, scale: 0.5, softcap: 0, dropout: 0, seed: 0, mask: MASK };
const SCORING = { B, H, Hkv: 1, Tq, Tk, dq: d, dk: d, dv: d, hidden: 0, scoring: 2, scale: 1, mask: MASK };
const LAYER = {
  B: 1,
  T: 3,
  dIn: 4,
  dQ: 4,
  dV: 4,
  heads: 1,
  kvHeads: 1,
  dOut: 0,
  scale: 0.5,
  mask: MASK,
  rope: false,
  ropeBase: 10000,
  ropeInterleaved: false,
  ropeOffset: 0,
  cacheLength: 0,
  cacheCapacity: 0,
};

// [entry, args with one bad size, that size's name]: each entry's own check must name it.
const BAD_SIZES = [
  ['maskedSoftmaxForward', { B: 0, H, Tq, Tk, mask: MASK }, 'B'],
  ['maskedSoftmaxBackward', { B, H: 0, Tq, Tk, mask: MASK }, 'H'],
  ['sdpaForward', { ...SDPA, Tq: 0 }, 'Tq'],
  ['sdpaBackward', { ...SDPA, Tk: 0 }, 'Tk'],
  ['scoringForward', { ...SCORING, dq: 0 }, 'dq'],
  ['scoringBackward', { ...SCORING, dk: 0 }, 'dk'],
  ['layerForward', { ...LAYER, T: 0 }, 'T'],
  ['layerBackward', { ...LAYER, dIn: 0 }, 'dIn'],
  ['layerForwardCached', { ...LAYER, heads: 0, cacheCapacity: 3 }, 'heads'],
  ['ropeForward', { N: 0, T: 3, d: 4, base: 10000, offset: 0, interleaved: false }, 'N'],
  ['ropeBackward', { N: 1, T: 0, d: 4, base: 10000, offset: 0, interleaved: false }, 'T'],
  ['initWeights', { fanIn: 0, fanOut: 2, seed: 0, stream: 0 }, 'fanIn'],
];

describe.each(BACKENDS)('packed entry points ($backend)', ({ simd }) => {
  let module;
  let attn;
  beforeAll(async () => {
    attn = await loadAttention({ simd });
    ({ module } = await loadModule({ simd }));
  });

  it('list every field the JS side sends, Buffers in the order of its own list', () => {
    const lists = Object.fromEntries(
      module
        .packedLayout()
        .split(';')
        .map((list) => list.split('=')),
    );
    expect(Object.keys(lists)).toEqual([
      'MaskArgs',
      'SoftmaxArgs',
      'SdpaArgs',
      'ScoringArgs',
      'LayerArgs',
      'RopeArgs',
      'InitArgs',
      'StepArgs',
      'TransformerArgs',
      'ModelCallArgs',
      'Buffers',
    ]);
    expect(lists.Buffers.split(',')).toEqual(Object.keys(NO_BUFFERS));
    expect(lists.MaskArgs.split(',').sort()).toEqual(Object.keys(MASK).sort());
    expect(lists.StepArgs.split(',')).toEqual(['n', 'learningRate']);
    expect(lists.LayerArgs.split(',').sort()).toEqual(Object.keys(LAYER).sort());
  });

  it('layerForwardCached refuses cache fields that do not fit, before it reads a buffer', () => {
    for (const cache of [
      { cacheLength: 1, cacheCapacity: 3 },
      { cacheLength: -1, cacheCapacity: 8 },
      { cacheLength: 0.5, cacheCapacity: 8 },
    ]) {
      const stack = module.stackSave();
      let message = 'no error';
      try {
        callEntry(module, 'layerForwardCached', { ...LAYER, ...cache }, NO_BUFFERS);
      } catch (error) {
        module.stackRestore(stack);
        message = `${error.constructor.name}: ${error.message}`;
      }
      expect(message).toBe('RangeError: layerForwardCached: cacheLength and cacheCapacity must be integers with cacheLength + T <= cacheCapacity');
    }
  });

  it('leave no Embind value_object entry point: one ABI', () => {
    for (const name of ['sdpaForwardPacked', 'maskedSoftmaxForwardPacked', 'scoringForwardPacked']) expect(module[name]).toBeUndefined();
    expect(() => module.ropeForward({ N: 1, T: 1, d: 2 }, NO_BUFFERS)).toThrow();
    // An object where a record's address is wanted is no valid call.
    expect(() => module.sdpaForward(SDPA, NO_BUFFERS)).toThrow();
  });

  it.each(BAD_SIZES.map((c) => [c[0], c]))('%s reads its own record: a bad size there is its own RangeError', (entry, [, args, size]) => {
    const stack = module.stackSave();
    let message = 'no error';
    try {
      callEntry(module, entry, args, NO_BUFFERS);
    } catch (error) {
      module.stackRestore(stack);
      message = `${error.constructor.name}: ${error.message}`;
    }
    expect(message).toBe(`RangeError: ${entry}: ${size} must be a positive integer, got 0`);
  });

  it('sgdStep reads its record: a learning rate beyond float32 is its RangeError', () => {
    const stack = module.stackSave();
    expect(() =>
      withArena(module, 'sgd', { w: Float32Array.of(1), dw: Float32Array.of(1) }, (buffers) =>
        callEntry(module, 'sgdStep', { n: 1, learningRate: 1e39 }, buffers),
      ),
    ).toThrow('sgdStep: learningRate must be finite in float32');
    expect(module.stackSave()).toBe(stack);
  });

  it('the scratch queries read their records: sizes past one allocation are Infinity', () => {
    expect(callQuery(module, 'sdpaScratchFloats', SDPA)).toBeGreaterThan(0);
    expect(callQuery(module, 'scoringScratchFloats', { ...SCORING, scoring: 3, hidden: 23168, Tq: 23168, Tk: 23168, B: 1, H: 1 })).toBe(Infinity);
    expect(callQuery(module, 'layerScratchFloats', LAYER)).toBeGreaterThan(0);
  });

  it('sdpaForward through the record computes what the public API computes, bit for bit', () => {
    const rand = seededRandom(3);
    const q = randomTensor(rand, [B, H, Tq, d]);
    const k = randomTensor(rand, [B, 1, Tk, d]);
    const v = randomTensor(rand, [B, 1, Tk, d]);
    const viaApi = attn.scaledDotProductAttention(q, k, v, { scale: 0.5, causal: true });
    const scratch = callQuery(module, 'sdpaScratchFloats', SDPA);
    const viaRecord = withArena(module, 'direct', { q: q.data, k: k.data, v: v.data, out: B * H * Tq * d, scratch }, (buffers, read) => {
      callEntry(module, 'sdpaForward', SDPA, buffers);
      return read('out');
    });
    expect(viaRecord).toEqual(viaApi.output.data);
  });

  it('rejects a record that does not lie inside wasm memory', () => {
    const stack = module.stackSave();
    expect(() => module.sdpaForward(module.HEAPU8.length - 8)).toThrow(/packed call: record: \d+ elements at address \d+ run past the end of wasm memory/);
    module.stackRestore(stack);
  });
});
