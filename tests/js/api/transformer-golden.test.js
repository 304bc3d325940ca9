// attn.transformer against float64 PyTorch (tools/model/transformer.py, tests/golden/transformer):
// per configuration (each position kind, with and without the MLP, grouped heads, windows, a tied
// unembedding, clipping with a loss mask) the logits, the loss, every parameter's gradient and
// every parameter after two AdamW steps, through the public API on every wasm build; and 300
// float32 training steps of the induction model against PyTorch's float64 loss curve.
import { describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose } from '../support/numeric.js';
import { GOLDEN_CASES, inductionBatch, loadGolden, modelConfig, optimizerOf, splitmix64 } from './transformer-golden.js';

// The tolerances of tests/cpp/transformer_golden_test.cpp, whose reasoning holds here: float32
// against float64 through two layers of d = 8..16 with O(1) inputs, a few ulp from each of ~10 ops
// in the logits (2e-7 at logits of ~3; a tied N(0, 1) embedding makes them up to ~15) and a similar
// relative error in the gradients (sums of O(B T) terms). The wasm builds sum in other orders than
// the native one (4-wide vectors, FMA in the relaxed build, plain loops in the scalar one): errors of
// the same kind and size, which the 3-5x margin of those tolerances covers.
const LOGITS = { atol: 4e-6, rtol: 2e-7 };
const GRADIENTS = { atol: 2e-7, rtol: 1e-6 };
const LOSS_ATOL = 1e-5;

const tokensOf = (values, B) => ({ data: Int32Array.from(values), shape: [B, values.length / B] });
const maskOf = (values, B) => ({ data: Uint8Array.from(values), shape: [B, values.length / B] });

/** A model of the golden's configuration holding its initial parameters. */
function goldenModel(attn, golden) {
  const model = attn.transformer(modelConfig(golden.config));
  const parameters = {};
  for (const { name, shape } of model.layout) parameters[name] = { data: Float32Array.from(golden.values.get(`param ${name}`)), shape };
  model.setParameters(parameters);
  return model;
}

/**
 * After two AdamW steps (tests/cpp/transformer_golden_test.cpp's allowance): Adam divides each
 * gradient by its own magnitude, so a gradient error dg moves a step by about lr dg / |g|; each
 * element is allowed 1e-6 + min(2.5 lr, 4 lr dg / |g|), dg measured on step 1. The key biases
 * (qkv.bias rows d .. d + Hkv dh) have an exact gradient of 0 and float32 rounding noise instead,
 * which Adam turns into steps of up to lr: 2.5 lr outright.
 */
function expectTwoSteps(model, golden, stepOneGradients, lr) {
  const { dModel, kvHeads, heads } = model.config;
  const keysFrom = dModel;
  const keysTo = dModel + kvHeads * (dModel / heads);
  const after = model.parameters();
  const problems = [];
  for (const { name } of model.layout) {
    const grad = golden.values.get(`grad ${name}`);
    const expected = golden.values.get(`after ${name}`);
    const actual = after[name].data;
    const ours = stepOneGradients[name].data;
    const keyBias = name.endsWith('qkv.bias');
    for (let i = 0; i < expected.length; i++) {
      const dg = Math.abs(ours[i] - grad[i]);
      const noise = keyBias && i >= keysFrom && i < keysTo;
      const allowed = noise ? 2.5 * lr : 1e-6 + (dg === 0 ? 0 : Math.min(2.5 * lr, (4 * lr * dg) / Math.abs(grad[i])));
      if (Math.abs(actual[i] - expected[i]) > allowed) {
        problems.push(`${name}[${i}]: ${actual[i]}, PyTorch ${expected[i]} (allowed ${allowed.toExponential(2)}, gradient ${grad[i]})`);
      }
    }
  }
  expect(problems.slice(0, 5), `${problems.length} parameters off after two steps`).toEqual([]);
}

describe.each(BACKENDS)('transformer against float64 PyTorch on $backend', ({ simd, backend }) => {
  it.each(GOLDEN_CASES)('%s: logits, loss, every gradient and two AdamW steps match', async (name) => {
    const attn = await loadBackend({ simd, backend });
    const golden = loadGolden(name);
    const model = goldenModel(attn, golden);
    const B = 2;
    const v = (key) => golden.values.get(key);
    const [tokens1, tokens2] = [tokensOf(v('ints tokens1'), B), tokensOf(v('ints tokens2'), B)];
    const batch1 = { targets: tokensOf(v('ints targets1'), B), lossMask: maskOf(v('floats mask1'), B) };
    const batch2 = { targets: tokensOf(v('ints targets2'), B), lossMask: maskOf(v('floats mask2'), B) };

    const { logits } = model.forward(tokens1);
    expectClose(logits, { data: v('floats logits'), shape: logits.shape }, { ...LOGITS, label: `${name} logits` });

    const { loss, gradients } = model.gradients(tokens1, batch1);
    expect(Math.abs(loss - v('floats loss')[0]), `loss ${loss}, PyTorch ${v('floats loss')[0]}`).toBeLessThanOrEqual(LOSS_ATOL);
    for (const { name: p, shape } of model.layout) {
      expectClose(gradients[p], { data: v(`grad ${p}`), shape }, { ...GRADIENTS, label: `${name} gradient of ${p}` });
    }

    const worst = (a, e) => a.reduce((w, x, i) => Math.max(w, Math.abs(x - e[i])), 0);
    const gradientError = Math.max(...model.layout.map(({ name: p }) => worst(gradients[p].data, v(`grad ${p}`))));
    console.log(
      `${backend} ${name}: worst |error| logits ${worst(logits.data, v('floats logits')).toExponential(1)}, loss ${Math.abs(loss - v('floats loss')[0]).toExponential(1)}, gradients ${gradientError.toExponential(1)}`,
    );

    const optimizer = optimizerOf(golden.optimizer);
    model.trainStep(tokens1, { ...batch1, optimizer });
    model.trainStep(tokens2, { ...batch2, optimizer });
    expect(model.steps).toBe(2);
    expectTwoSteps(model, golden, gradients, optimizer.learningRate);
    model.dispose();
  });

  it('300 float32 steps of the induction task follow float64 PyTorch within 4x its own float32 drift', async () => {
    const attn = await loadBackend({ simd, backend });
    const golden = loadGolden('induction_curve');
    const model = attn.transformer({ vocab: 26, dModel: 32, layers: 2, heads: 4, maxLength: 24, positions: 'learned', mlp: 0 });
    const parameters = {};
    for (const { name, shape } of model.layout) parameters[name] = { data: Float32Array.from(golden.values.get(`param ${name}`)), shape };
    model.setParameters(parameters);
    const loss32 = golden.values.get('floats loss32');
    const loss64 = golden.values.get('floats loss64');
    const next = splitmix64(1);
    const optimizer = { learningRate: 3e-3, weightDecay: 0.01 };
    // tests/cpp/transformer_curve_test.cpp's allowance: PyTorch's own float32 run stays within
    // drift_t = max over s <= t of |loss32 - loss64| of the float64 curve; ours rounds in other
    // orders, a drift of the same kind, allowed 4 drift_t + 1e-6.
    let drift = 0;
    let worstGap = 0;
    for (let step = 0; step < loss64.length; step++) {
      const { loss } = model.trainStep(inductionBatch(next, 32, 24, 26), { optimizer });
      drift = Math.max(drift, Math.abs(loss32[step] - loss64[step]));
      const gap = Math.abs(loss - loss64[step]);
      worstGap = Math.max(worstGap, gap);
      if (gap > 4 * drift + 1e-6) expect.fail(`step ${step + 1}: loss ${loss}, float64 PyTorch ${loss64[step]}, allowed ${4 * drift + 1e-6}`);
    }
    console.log(
      `${backend}: ${loss64.length} steps, float64 loss ${loss64[0].toFixed(4)} -> ${loss64.at(-1).toFixed(4)}, largest gap ${worstGap.toExponential(2)} (PyTorch float32's ${drift.toExponential(2)})`,
    );
    model.dispose();
  });
});
