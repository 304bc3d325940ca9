// Property-based fuzzing of the layers (selfAttention, multiHeadAttention) on both wasm builds:
// construction, forward, backward, step and setParameters against the float64 layerReference,
// or a TypeError/RangeError naming the argument at fault; never a trap, a changed input or a
// change of wasm memory (tests/fuzz/layer-cases.js, contract.js).
import { describe, it } from 'vitest';
import { BACKENDS } from '../js/support/backends.js';
import { layerSpec, runLayerSession } from './layer-cases.js';
import { fuzzTimeout } from './settings.js';
import { assertWithOutcomes, loadedBuild } from './suite.js';

describe.each(BACKENDS)('fuzz: attention layers ($backend)', (which) => {
  const b = loadedBuild(which);

  it(
    'selfAttention and multiHeadAttention sessions match float64 step by step or name the argument at fault',
    () => {
      assertWithOutcomes(layerSpec, (s) => runLayerSession(b.attn, b.module, s), 400);
    },
    fuzzTimeout(400),
  );
});
