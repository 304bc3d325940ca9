// Golden vectors: every case of tests/golden/golden.json (PyTorch 1.13, float64, autograd; see
// tests/golden/gen_golden.py), forward and backward, through the public API on both builds.
import { beforeAll, describe, expect, it } from 'vitest';
import golden from '../golden/golden.json';
import { BACKENDS, loadBackend } from './backends.js';
import { decodeNumber, expectClose, tensorFromJson } from './numeric.js';

// The reference is float64 on float32-exact inputs; we store and accumulate in float32 (ulp 1.2e-7
// at 1) over at most a few dozen terms of magnitude <= ~10, and the backward's dS = P (dP - D)
// cancels, turning relative error of dP into absolute error of dS. Measured: the worst element of
// every case is within 2 ulps (rtol 2e-6, atol 1e-6 pass). 1e-5 relative + 5e-6 absolute leaves
// room for kernels that sum in another order (blocked/fused, the next issue) and is still 3 orders
// below any real mistake (a wrong mask or a missing term moves values by > 1e-2).
const TOLERANCE = { rtol: 1e-5, atol: 5e-6 };

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
function qkvRunner(fn) {
  return (attn, c) => {
    const { q, k, v } = inputsOf(c);
    const options = apiOptions(c.options);
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
  additiveAttention: qkvRunner('additiveAttention'),
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
      expectClose(actual[name], tensorFromJson(expected), { ...TOLERANCE, label: `${c.name}: ${name}` });
    }
    if (actual['output (with weights)']) {
      expectClose(actual['output (with weights)'], tensorFromJson(c.expected.output), { ...TOLERANCE, label: `${c.name}: output (with weights)` });
    }
  });
});
