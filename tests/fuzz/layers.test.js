// Property-based fuzzing of the layers (selfAttention, multiHeadAttention) on both wasm builds:
// construction, forward, backward, step and setParameters against the float64 layerReference,
// or a TypeError/RangeError naming the argument at fault; never a trap, a changed input or a
// change of wasm memory (tests/fuzz/layer-cases.js, contract.js).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModule } from '../../web/src/loader.js';
import { BACKENDS, loadBackend } from '../js/backends.js';
import { layerSpec, runLayerSession } from './layer-cases.js';
import { fuzzParams } from './settings.js';

describe.each(BACKENDS)('fuzz: attention layers ($backend)', (which) => {
  let attn;
  let module;
  beforeAll(async () => {
    attn = await loadBackend(which);
    ({ module } = await loadModule({ simd: which.simd }));
  });

  it('selfAttention and multiHeadAttention sessions match float64 step by step or name the argument at fault', () => {
    const seen = { error: 0, result: 0 };
    fc.assert(fc.property(layerSpec, (s) => { seen[runLayerSession(attn, module, s)]++; }), fuzzParams(400));
    const total = seen.error + seen.result;
    expect(seen.result / total, `results among ${total} sessions`).toBeGreaterThan(0.4);
    expect(seen.error / total, `named errors among ${total} sessions`).toBeGreaterThan(0.1);
  });
});
