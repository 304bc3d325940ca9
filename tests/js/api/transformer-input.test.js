// attn.transformer's boundary: every bad input of issue 35's list (and the configuration's and the
// optimizer's) is a TypeError or RangeError naming it, nothing changes, and the module keeps
// working; a step whose loss is not finite leaves the parameters and the AdamW state as they were.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, heapState, loadBackend } from '../support/backends.js';
import { heldMemory, outOfMemoryError } from '../../../web/src/boundary/memory.js';
import { loadModule } from '../../../web/src/boundary/loader.js';

const CONFIG = { vocab: 7, dModel: 8, layers: 2, heads: 2, maxLength: 6, positions: 'learned', mlp: 0, seed: 3 };
const TOKENS = { data: Int32Array.from([0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]), shape: [2, 6] };
const STEP = { optimizer: { learningRate: 0.01 } };

/** Every parameter's data, as plain arrays, to compare before and after. */
const snapshot = (model) => Object.fromEntries(Object.entries(model.parameters()).map(([name, t]) => [name, Array.from(t.data)]));

describe.each(BACKENDS)('transformer input checks on $backend', ({ simd, backend }) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend({ simd, backend });
  });

  it('refuses a configuration its core cannot build, naming the option', () => {
    const bad = [
      [{ dModel: 9 }, RangeError, /dModel must be a multiple of heads/],
      [{ heads: 2, kvHeads: 3 }, RangeError, /heads must be a multiple of kvHeads/],
      [{ dModel: 6, heads: 2, positions: 'rope' }, RangeError, /rope needs an even head width/],
      [{ positions: 'sinusoidal' }, RangeError, /positions must be one of/],
      [{ mlp: undefined }, TypeError, /mlp is required/],
      [{ vocab: 0 }, RangeError, /vocab must be an integer >= 1/],
      [{ layers: 1.5 }, RangeError, /layers must be an integer/],
      [{ window: 0 }, RangeError, /window must be an integer >= 1/],
      [{ rope: { base: 100 } }, RangeError, /rope is an option of positions 'rope'/],
      [{ alibi: true }, RangeError, /alibi must be true .* only with positions 'alibi'/],
      [{ gelu: 'fast' }, RangeError, /gelu must be one of/],
      [{ seed: -1 }, RangeError, /seed must be an integer/],
      [{ tie: 1 }, TypeError, /tie must be true or false/],
      [{ casual: true }, TypeError, /unknown option 'casual'/],
      [{ vocab: 2 ** 20, dModel: 2 ** 10, heads: 1 }, RangeError, /more than one wasm allocation holds/],
    ];
    for (const [change, type, message] of bad) {
      expect(() => attn.transformer({ ...CONFIG, ...change }), JSON.stringify(change)).toThrow(type);
      expect(() => attn.transformer({ ...CONFIG, ...change }), JSON.stringify(change)).toThrow(message);
    }
  });

  it('refuses a token outside the vocabulary, a fraction, T above maxLength and a shape not (B, T)', () => {
    const model = attn.transformer(CONFIG);
    const cases = [
      [[[0, 1, 7]], RangeError, /tokens must be ids in \[0, vocab = 7\), got 7 at \[0, 2\]/],
      [[[0, -1]], RangeError, /tokens must be ids in \[0, vocab = 7\), got -1 at \[0, 1\]/],
      [[[0, 1.5]], TypeError, /tokens must hold integers, got 1.5/],
      [[[0, 1, 2, 3, 4, 5, 6]], RangeError, /T = 7 positions, more than the model's maxLength 6/],
      [[0, 1, 2], RangeError, /tokens must have shape \(B, T\)/],
      [{ data: new Int32Array(0), shape: [0, 3] }, RangeError, /tokens must have shape \(B, T\) with B, T >= 1/],
      [undefined, TypeError, /tokens is required/],
    ];
    for (const [tokens, type, message] of cases) {
      for (const call of [() => model.forward(tokens), () => model.gradients(tokens), () => model.trainStep(tokens, STEP)]) {
        expect(call, JSON.stringify(tokens)).toThrow(type);
        expect(call, JSON.stringify(tokens)).toThrow(message);
      }
    }
    expect(model.steps).toBe(0);
    model.dispose();
  });

  it('refuses targets and a loss mask of another shape than the tokens, targets outside the vocabulary and a mask that counts nothing', () => {
    const model = attn.transformer(CONFIG);
    const ones = Array.from({ length: 2 }, () => Array(6).fill(1));
    const cases = [
      [{ targets: [[1, 2, 3]] }, RangeError, /targets must have the shape of tokens, \[2, 6\], got \[1, 3\]/],
      [{ lossMask: [[1, 1]] }, RangeError, /lossMask must have the shape of tokens, \[2, 6\], got \[1, 2\]/],
      [{ targets: ones.map((r) => r.map(() => 9)) }, RangeError, /targets must be ids in \[0, vocab = 7\) where lossMask counts, got 9 at \[0, 0\]/],
      [{ lossMask: ones.map((r) => r.map(() => 2)) }, RangeError, /lossMask must hold 0 and 1/],
      [{ lossMask: ones.map((r) => r.map(() => 0)) }, RangeError, /lossMask counts no position/],
      [{ lossMask: ones.map((r) => r.map((_, t) => (t === 5 ? 1 : 0))) }, RangeError, /the last position never does/],
      [{ target: ones }, TypeError, /unknown option 'target'/],
    ];
    for (const [options, type, message] of cases) {
      expect(() => model.gradients(TOKENS, options), JSON.stringify(options)).toThrow(type);
      expect(() => model.gradients(TOKENS, options), JSON.stringify(options)).toThrow(message);
      expect(() => model.trainStep(TOKENS, { ...options, ...STEP })).toThrow(message);
    }
    // a target outside the vocabulary where the mask does not count is ignored (PyTorch's -100)
    const targets = ones.map((r) => r.map((_, t) => (t === 0 ? -100 : 1)));
    const lossMask = ones.map((r) => r.map((_, t) => (t === 0 ? 0 : 1)));
    expect(Number.isFinite(model.gradients(TOKENS, { targets, lossMask }).loss)).toBe(true);
    model.dispose();
  });

  it('refuses a learning rate that is not finite or negative, and optimizer options out of range', () => {
    const model = attn.transformer(CONFIG);
    const before = snapshot(model);
    const cases = [
      [{ learningRate: NaN }, RangeError, /learningRate must be a finite number >= 0/],
      [{ learningRate: Infinity }, RangeError, /learningRate must be a finite number >= 0/],
      [{ learningRate: -0.1 }, RangeError, /learningRate must be a finite number >= 0/],
      [{ learningRate: 1e39 }, RangeError, /learningRate must be a finite number >= 0 in float32/],
      [{ learningRate: '0.1' }, TypeError, /learningRate must be/],
      [{}, TypeError, /optimizer.learningRate is required/],
      [{ learningRate: 0.1, betas: [0.9, 1] }, RangeError, /betas must lie in \[0, 1\)/],
      [{ learningRate: 0.1, betas: 0.9 }, TypeError, /betas must be two numbers/],
      [{ learningRate: 0.1, eps: 0 }, RangeError, /eps must be a finite number > 0/],
      [{ learningRate: 0.1, weightDecay: -1 }, RangeError, /weightDecay must be a finite number >= 0/],
      [{ learningRate: 0.1, clip: -1 }, RangeError, /clip must be a finite number >= 0/],
      [{ learningRate: 0.1, momentum: 0.9 }, TypeError, /unknown option 'momentum'/],
    ];
    for (const [optimizer, type, message] of cases) {
      expect(() => model.trainStep(TOKENS, { optimizer }), JSON.stringify(optimizer)).toThrow(type);
      expect(() => model.trainStep(TOKENS, { optimizer }), JSON.stringify(optimizer)).toThrow(message);
    }
    expect(() => model.trainStep(TOKENS)).toThrow(/optimizer is required/);
    expect(snapshot(model)).toEqual(before);
    expect(model.steps).toBe(0);
    model.dispose();
  });

  it('setParameters refuses a missing, extra, misshapen or non-finite tensor by name and changes nothing', () => {
    const model = attn.transformer(CONFIG);
    const good = model.parameters();
    const before = snapshot(model);
    const without = (name) => Object.fromEntries(Object.entries(good).filter(([n]) => n !== name));
    const cases = [
      [without('layers.1.out.bias'), /missing parameter layers.1.out.bias/],
      [{ ...good, 'layers.2.out.bias': good['layers.1.out.bias'] }, /unknown parameter 'layers.2.out.bias'/],
      [{ ...good, 'pos.weight': { data: new Float32Array(5 * 8), shape: [5, 8] } }, /pos.weight must have shape \[6, 8\], got \[5, 8\]/],
      [{ ...good, 'norm.bias': { data: new Float32Array(8).fill(NaN), shape: [8] } }, /norm.bias must hold finite numbers, got NaN/],
      [{ ...good, 'norm.bias': { data: new Float64Array(8).fill(1e39), shape: [8] } }, /norm.bias must hold finite numbers, got Infinity/],
    ];
    for (const [map, message] of cases) {
      expect(() => model.setParameters(map)).toThrow(RangeError);
      expect(() => model.setParameters(map)).toThrow(message);
    }
    expect(() => model.setParameters([1, 2])).toThrow(TypeError);
    expect(snapshot(model)).toEqual(before);
    // a Map works too; train_induction.py's causal buffers are ignored
    const changed = { ...good, 'norm.bias': { data: new Float32Array(8).fill(0.5), shape: [8] }, 'layers.0.causal': [[1]] };
    model.setParameters(new Map(Object.entries(changed)));
    expect(Array.from(model.parameters()['norm.bias'].data)).toEqual(Array(8).fill(0.5));
    model.dispose();
  });

  it('a tied model lists unembed.weight as tok.weight and takes either, but not two different ones', () => {
    const model = attn.transformer({ ...CONFIG, tie: true });
    expect(model.layout.map((p) => p.name)).not.toContain('unembed.weight');
    const saved = model.parameters();
    const names = Object.keys(saved);
    expect(names.slice(-2)).toEqual(['unembed.weight', 'unembed.bias']); // state_dict order
    expect(saved['unembed.weight'].data).toEqual(saved['tok.weight'].data);
    const other = { data: saved['tok.weight'].data.map((x) => x + 1), shape: saved['tok.weight'].shape };
    expect(() => model.setParameters({ ...saved, 'unembed.weight': other })).toThrow(/unembed.weight must equal tok.weight/);
    const { 'tok.weight': _, ...onlyAlias } = { ...saved, 'unembed.weight': other };
    model.setParameters(onlyAlias);
    expect(model.parameters()['tok.weight'].data).toEqual(other.data);
    model.dispose();
  });

  it('a step whose loss is not finite throws and leaves the parameters and the AdamW state of the last good step', () => {
    const [a, b] = [attn.transformer(CONFIG), attn.transformer(CONFIG)];
    a.trainStep(TOKENS, STEP);
    b.trainStep(TOKENS, STEP);
    const good = a.parameters();
    // logits of ~1e38 * 8: their softmax overflows float32, the loss is not finite
    const huge = {
      ...good,
      'unembed.weight': { data: new Float32Array(7 * 8).fill(1e37), shape: [7, 8] },
      'norm.bias': { data: new Float32Array(8).fill(3e38), shape: [8] },
    };
    a.setParameters(huge);
    const before = snapshot(a);
    expect(() => a.trainStep(TOKENS, STEP)).toThrow(RangeError);
    expect(() => a.trainStep(TOKENS, STEP)).toThrow(/trainStep: the loss or a gradient is not finite .*after step 1/);
    expect(() => a.gradients(TOKENS)).toThrow(/gradients: the loss \(.*\) overflowed float32/);
    expect(snapshot(a)).toEqual(before);
    expect(a.steps).toBe(1);
    // the moments and the step count: a second step from the good parameters is b's second step, bit for bit
    a.setParameters(good);
    a.trainStep(TOKENS, STEP);
    b.trainStep(TOKENS, STEP);
    expect(snapshot(a)).toEqual(snapshot(b));
    a.dispose();
    b.dispose();
  });

  it('a model or a batch larger than one wasm allocation is refused before the core allocates', () => {
    // 9 V + 320 = 134217320 parameters: under the binding's 2^27, but 16 bytes each (parameters,
    // gradients, two moments) pass the 2 GiB - 64 KiB one allocation holds.
    const huge = { vocab: 14913000, dModel: 8, layers: 1, heads: 1, maxLength: 4, positions: 'none', mlp: 0, tie: true };
    expect(() => attn.transformer(huge)).toThrow(RangeError);
    expect(() => attn.transformer(huge)).toThrow(
      /transformer \(134217320 parameters, with gradients and AdamW moments\) needs 2048 MiB of wasm memory in one block/,
    );
    const wide = attn.transformer({ vocab: 100000, dModel: 8, layers: 1, heads: 1, maxLength: 1024, positions: 'none', mlp: 0, tie: true });
    const tokens = { data: new Int32Array(8 * 1024), shape: [8, 1024] }; // logits (8, 1024, 100000): 3.1 GiB
    expect(() => wide.forward(tokens)).toThrow(RangeError);
    expect(() => wide.forward(tokens)).toThrow(/logits alone 3125 MiB/);
    expect(() => wide.trainStep(tokens, STEP)).toThrow(/trainStep: a batch of 8 x 1024 needs more than one wasm allocation \(2 GiB\) for its activations/);
    expect(wide.forward({ data: new Int32Array(4), shape: [1, 4] }).logits.shape).toEqual([1, 4, 100000]);
    wide.dispose();
  });

  it('a model counts in the memory errors while it lives, and dispose() gives every byte back', async () => {
    const { module } = await loadModule({ simd });
    attn.transformer(CONFIG).dispose(); // the registry's first slot is made once per module
    const before = heapState(module);
    const model = attn.transformer(CONFIG);
    model.trainStep(TOKENS, STEP);
    const held = heldMemory(module);
    expect(held.models).toBe(1);
    expect(held.modelBytes).toBeGreaterThan(16 * model.parameterCount); // parameters, gradients, moments and the workspace
    expect(outOfMemoryError(module, 'sdpa', 2 ** 30).message).toMatch(/; 1 live transformer holds [\d.]+ MiB \(model.dispose\(\) frees one\)/);
    model.dispose();
    expect(heldMemory(module).models).toBe(0);
    expect(heapState(module)).toEqual(before);
  });

  it('a disposed model refuses every call, and the module keeps working after all of the above', () => {
    const model = attn.transformer(CONFIG);
    model.dispose();
    model.dispose(); // idempotent
    for (const call of [() => model.forward(TOKENS), () => model.trainStep(TOKENS, STEP), () => model.parameters(), () => model.setParameters({})]) {
      expect(call).toThrow(/this model was disposed/);
    }
    const fresh = attn.transformer(CONFIG);
    expect(fresh.forward(TOKENS).logits.shape).toEqual([2, 6, 7]);
    expect(attn.maskedSoftmax([1, 2]).data.length).toBe(2);
    fresh.dispose();
  });
});
