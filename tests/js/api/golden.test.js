// Golden vectors: every case of tests/golden/golden.json (PyTorch 1.13, float64, autograd; see
// tests/golden/gen_golden.py), forward and backward, through the public API on both builds.
import { beforeAll, describe, expect, it } from 'vitest';
import golden from '../../golden/golden.json';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { decodeNumber, expectClose, tensorFromJson } from '../support/numeric.js';

// The reference is float64 on float32-exact inputs; we store and accumulate in float32 (ulp 1.2e-7
// at 1) over at most a few dozen terms of magnitude <= ~10, and the backward's dS = P (dP - D)
// cancels, turning relative error of dP into absolute error of dS. Measured: the worst element of
// every case is within 2 ulps (rtol 2e-6, atol 1e-6 pass). 1e-5 relative + 5e-6 absolute leaves
// room for kernels that sum in another order (blocked/fused, the next issue) and is still 3 orders
// below any real mistake (a wrong mask or a missing term moves values by > 1e-2).
const TOLERANCE = { rtol: 1e-5, atol: 5e-6 };
// Outputs whose float64 answer float32 cannot resolve to that tolerance, by how much it is widened.
// The multi-query layer with RoPE (base 100) and a window of 3 keys: dwq's worst element (-0.0386)
// is a sum that cancels, so the float32 rounding of the inputs alone moves it by about a tolerance:
// x and the weights moved by one ulp each (random signs, five draws, scalar build) moved dwq by
// 0.59-1.65 tolerances, and the builds' own rounding lands it at 0.48-1.69 of the tolerance
// depending on the order of their sums (2026-11-24). 4x keeps it 3 orders below a real mistake.
const WIDER = {
  'multiHeadAttention heads 4, kvHeads 1 (multi-query), rope interleaved base 100, window [2, 0]': { dwq: 4 },
};
const toleranceOf = (c, name) => {
  const factor = WIDER[c.name]?.[name] ?? 1;
  return { rtol: TOLERANCE.rtol * factor, atol: TOLERANCE.atol * factor };
};

function maskFromJson(m) {
  const data = m.dtype === 'bool' ? Uint8Array.from(m.data) : Float32Array.from(m.data, decodeNumber);
  return { data, shape: [...m.shape] };
}

/** JSON options -> API options: tensors become Float32Array tensors, masks typed arrays. */
function apiOptions(options = {}) {
  const out = { ...options };
  if (options.attnMask) out.attnMask = maskFromJson(options.attnMask);
  for (const name of ['wq', 'wk', 'wv', 'wo']) if (options[name]) out[name] = tensorFromJson(options[name]);
  if (options.params) {
    out.params = Object.fromEntries(Object.entries(options.params).map(([k, t]) => [k, tensorFromJson(t)]));
  }
  return out;
}

const inputsOf = (c) => Object.fromEntries(Object.entries(c.inputs).map(([k, t]) => [k, tensorFromJson(t)]));

/**
 * Forward (with weights, and lse when the case expects it) and backward of a (q, k, v) entry point:
 * attn[fn] and attn[fn + 'Backward'].
 */
function qkvRunner(fn, toOptions = apiOptions) {
  return (attn, c) => {
    const { q, k, v } = inputsOf(c);
    const options = toOptions(c.options);
    const extra = 'lse' in c.expected ? { returnLse: true } : {};
    const fwd = attn[fn](q, k, v, { ...options, returnWeights: true, ...extra });
    // Without weights, trace or lse the kernels may take another (fused, memory-lean) path.
    const plain = attn[fn](q, k, v, options);
    const grads = attn[`${fn}Backward`](q, k, v, tensorFromJson(c.gradOutput), options);
    return { output: plain.output, 'output (with weights)': fwd.output, weights: fwd.weights, lse: fwd.lse, ...grads };
  };
}

/** Runs one case forward and backward; returns { [expected name]: Tensor }. */
const RUNNERS = {
  scaledDotProductAttention: qkvRunner('scaledDotProductAttention'),
  // Cases of 0.1's additiveAttention (weights among the options) run through attention().
  additiveAttention: qkvRunner('attention', ({ wq, wk, wv, ...rest }) => apiOptions({ ...rest, scoring: 'additive', params: { wq, wk, wv } })),
  attention: qkvRunner('attention'),
  maskedSoftmax(attn, c) {
    const { x } = inputsOf(c);
    const options = apiOptions(c.options);
    const output = attn.maskedSoftmax(x, options);
    const dx = attn.maskedSoftmaxBackward(output, tensorFromJson(c.gradOutput), options);
    return { output, dx };
  },
  rope(attn, c) {
    const { x } = inputsOf(c);
    const output = attn.rope(x, c.options);
    const dx = attn.ropeBackward(tensorFromJson(c.gradOutput), c.options);
    return { output, dx };
  },
  selfAttention(attn, c) {
    return runLayer(attn.selfAttention(apiOptions(c.layer)), c);
  },
  multiHeadAttention(attn, c) {
    return runLayer(attn.multiHeadAttention(apiOptions(c.layer)), c);
  },
};

function runLayer(layer, c) {
  const { x } = inputsOf(c);
  const { output } = layer.forward(x, { ...c.forward, trace: false });
  const grads = layer.backward(tensorFromJson(c.gradOutput));
  layer.dispose();
  return { output, ...grads };
}

describe('the golden file', () => {
  it('holds cases for every entry point', () => {
    const fns = new Set(golden.cases.map((c) => c.fn));
    expect([...fns].sort()).toEqual(Object.keys(RUNNERS).sort());
    expect(golden.cases.length).toBe(golden.count);
  });
});

describe.each(BACKENDS)('golden vectors from PyTorch ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  it.each(golden.cases.map((c) => [`${c.fn}: ${c.name}`, c]))('%s', (_, c) => {
    const actual = RUNNERS[c.fn](attn, c);
    for (const [name, expected] of Object.entries(c.expected)) {
      expectClose(actual[name], tensorFromJson(expected), { ...toleranceOf(c, name), label: `${c.name}: ${name}` });
    }
    if (actual['output (with weights)']) {
      expectClose(actual['output (with weights)'], tensorFromJson(c.expected.output), { ...TOLERANCE, label: `${c.name}: output (with weights)` });
    }
  });
});
