// The binding's packed entry points (cpp/bindings/packed.hpp, web/src/packed.js): the fast path of
// every small call. Each must compute exactly what its value_object twin computes, fail with the
// same RangeError, and reject a record that does not lie in wasm memory.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../web/src/index.js';
import { loadModule } from '../../web/src/loader.js';
import { NO_BUFFERS, withArena } from '../../web/src/memory.js';
import { callEntry } from '../../web/src/packed.js';
import { BACKENDS } from './backends.js';
import { randomTensor, seededRandom } from './numeric.js';

const MASK = { validLensPerRow: false, causal: 1, strideB: 0, strideH: 0, strideI: 0, strideJ: 0, useFill: false, fill: 0, windowLeft: -1, windowRight: -1 };

// One call per packed entry: [entry, args, inputs (name -> floats), outputs (name -> floats)].
function cases(rand) {
  const f = (n) => randomTensor(rand, [n]).data;
  const [B, H, Tq, Tk, d] = [2, 2, 3, 5, 4];
  const sdpa = { B, H, Hkv: 1, Tq, Tk, d, dv: d, scale: 0.5, softcap: 0, dropout: 0, seed: 0, mask: MASK };
  const scoring = { B, H, Hkv: 1, Tq, Tk, dq: d, dk: d, dv: d, hidden: 0, scoring: 2, scale: 1, mask: MASK };
  const qkv = { q: f(B * H * Tq * d), k: f(B * Tk * d), v: f(B * Tk * d) };
  const scores = B * H * Tq * Tk;
  return [
    ['maskedSoftmaxForward', { B, H, Tq, Tk, mask: MASK }, { x: f(scores) }, { y: scores }],
    ['maskedSoftmaxBackward', { B, H, Tq, Tk, mask: MASK }, { y: f(scores), dy: f(scores) }, { dx: scores }],
    ['sdpaForward', sdpa, qkv, { out: B * H * Tq * d, lse: B * H * Tq, weights: scores, scratch: 4096 }],
    ['sdpaBackward', sdpa, { ...qkv, dout: f(B * H * Tq * d) }, { dq: B * H * Tq * d, dk: B * Tk * d, dv: B * Tk * d, scratch: 4096 }],
    ['scoringForward', scoring, { ...qkv, w: f(d * d) }, { out: B * H * Tq * d, weights: scores, scratch: 4096 }],
    ['scoringBackward', scoring, { ...qkv, w: f(d * d), dout: f(B * H * Tq * d) }, { dq: B * H * Tq * d, dk: B * Tk * d, dv: B * Tk * d, dw: d * d, scratch: 4096 }],
  ];
}

/** Runs `entry` with `call(buffers)` on freshly placed inputs and returns every output. */
function run(module, entry, inputs, outputs, call) {
  return withArena(module, entry, { ...inputs, ...outputs }, (buffers, read) => {
    call(buffers);
    return Object.fromEntries(Object.keys(outputs).filter((name) => name !== 'scratch').map((name) => [name, read(name)]));
  });
}

describe.each(BACKENDS)('packed entry points ($backend)', ({ simd }) => {
  let module;
  beforeAll(async () => {
    await loadAttention({ simd }); // prepares the packed record of the cached module
    ({ module } = await loadModule({ simd }));
  });

  it('list every field the JS side sends, Buffers in the order of its own list', () => {
    const lists = Object.fromEntries(module.packedLayout().split(';').map((list) => list.split('=')));
    expect(Object.keys(lists)).toEqual(['MaskArgs', 'SoftmaxArgs', 'SdpaArgs', 'ScoringArgs', 'Buffers']);
    expect(lists.Buffers.split(',')).toEqual(Object.keys(NO_BUFFERS));
    expect(lists.MaskArgs.split(',').sort()).toEqual(Object.keys(MASK).sort());
  });

  it.each(cases(seededRandom(3)).map((c) => [c[0], c]))('%s computes what its value_object twin computes, bit for bit', (entry, [, args, inputs, outputs]) => {
    const viaObjects = run(module, entry, inputs, outputs, (buffers) => module[entry](args, buffers));
    const viaRecord = run(module, entry, inputs, outputs, (buffers) => callEntry(module, entry, args, buffers));
    expect(viaRecord).toEqual(viaObjects);
  });

  it('raises the same RangeError as the value_object path for a bad size', () => {
    const [entry, args, inputs, outputs] = cases(seededRandom(4)).find(([name]) => name === 'sdpaForward');
    const bad = { ...args, B: 0 };
    const message = (call) => {
      try {
        run(module, entry, inputs, outputs, call);
      } catch (error) {
        return `${error.constructor.name}: ${error.message}`;
      }
      return 'no error';
    };
    const expected = message((buffers) => module[entry](bad, buffers));
    expect(expected).toBe('RangeError: sdpaForward: B must be a positive integer, got 0');
    expect(message((buffers) => callEntry(module, entry, bad, buffers))).toBe(expected);
  });

  it('rejects a record that does not lie inside wasm memory', () => {
    const stack = module.stackSave();
    expect(() => module.sdpaForwardPacked(module.HEAPU8.length - 8)).toThrow(/packed call: record: \d+ elements at address \d+ run past the end of wasm memory/);
    module.stackRestore(stack);
  });
});
