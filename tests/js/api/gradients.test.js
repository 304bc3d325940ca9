// Finite-difference checks of every JS-level backward function on small random cases: the analytic
// gradient of L = sum(output * G) (G a fixed random dOutput) against the central difference
// (L(x + e) - L(x - e)) / (2e), element by element, for every input and weight.
import { beforeAll, describe, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { randomTensor, seededRandom } from '../support/numeric.js';

// Why these numbers (float32 forward passes, L summed in float64):
// - EPS = 1e-2: L's float32 rounding noise is ~1e-7 * |L| ~ 1e-6 for these sizes; divided by 2e
//   that is ~5e-5. The central difference's truncation error is e^2/6 * L''' ~ 2e-5 * L''' with
//   L''' = O(1..10) for softmax/tanh of O(1) inputs. Smaller e drowns in rounding, larger in truncation.
// - Measured worst |analytic - finite difference| over all cases: 2e-5. Tolerance 2e-4 absolute +
//   2e-3 relative keeps 10x headroom; a real mistake (a missing scale or softcap factor, a transposed
//   product, a gradient leaking into masked keys) is off by 1e-2 or more.
const EPS = 1e-2;
const TOLERANCE = { atol: 2e-4, rtol: 2e-3 };

function dot64(output, g) {
  let s = 0;
  for (let i = 0; i < g.data.length; i++) s += output.data[i] * g.data[i];
  return s;
}

/**
 * Checks analytic[name] against central differences of loss(inputs) for every element of every
 * named input. loss(inputs) must not keep references to the tensors it is given.
 */
function checkGradients(label, inputs, analytic, loss) {
  const failures = [];
  for (const name of Object.keys(analytic)) {
    const t = inputs[name];
    const grad = analytic[name];
    if (!grad) throw new Error(`${label}: no analytic gradient for ${name}`);
    if (grad.data.length !== t.data.length) throw new Error(`${label}: ${name} gradient has ${grad.data.length} elements, the input ${t.data.length}`);
    let worst = { excess: -Infinity };
    for (let i = 0; i < t.data.length; i++) {
      const original = t.data[i];
      t.data[i] = original + EPS;
      const up = t.data[i]; // the float32 value actually used
      const lossUp = loss(inputs);
      t.data[i] = original - EPS;
      const down = t.data[i];
      const lossDown = loss(inputs);
      t.data[i] = original;
      const numeric = (lossUp - lossDown) / (up - down);
      const excess = Math.abs(grad.data[i] - numeric) - (TOLERANCE.atol + TOLERANCE.rtol * Math.abs(numeric));
      if (excess > worst.excess) worst = { excess, i, numeric, analytic: grad.data[i] };
    }
    if (worst.excess > 0) failures.push(`${name}[${worst.i}]: analytic ${worst.analytic}, finite difference ${worst.numeric}`);
  }
  if (failures.length) throw new Error(`${label}: gradient mismatch (worst per input): ${failures.join('; ')}`);
}

function randomInputs(seed, shapes, spread = 1) {
  const rand = seededRandom(seed);
  return Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, randomTensor(rand, shape, spread)]));
}

const SDPA_CASES = [
  { name: 'rank 3, no mask', shapes: { q: [2, 3, 4], k: [2, 5, 4], v: [2, 5, 3] }, options: {} },
  {
    name: 'rank 4 GQA (H 4, Hkv 2), bool attnMask, causal top-left, softcap 1.5, scale 0.4',
    shapes: { q: [1, 4, 3, 4], k: [1, 2, 4, 4], v: [1, 2, 4, 2] },
    options: {
      causal: 'top-left',
      softcap: 1.5,
      scale: 0.4,
      attnMask: { data: Uint8Array.from([1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0]), shape: [3, 4] },
    },
  },
  {
    name: 'float attnMask, validLens (B, Tq) with an empty row, causal bottom-right',
    shapes: { q: [2, 3, 4], k: [2, 5, 4], v: [2, 5, 3] },
    options: {
      validLens: [
        [5, 0, 3],
        [2, 4, 5],
      ],
      causal: 'bottom-right',
      attnMask: { data: Float32Array.from([0.5, -1, 0, -Infinity, 0.25]), shape: [5] },
    },
  },
  {
    name: 'dropout 0.3 with a seed (the same keep mask forward and backward)',
    shapes: { q: [2, 3, 4], k: [2, 5, 4], v: [2, 5, 3] },
    options: { dropout: 0.3, dropoutSeed: 11 },
  },
  {
    name: 'window [1, 0] with ALiBi slopes, rank 4 GQA (H 2, Hkv 1), Tq 3 < Tk 5',
    shapes: { q: [1, 2, 3, 4], k: [1, 1, 5, 4], v: [1, 1, 5, 3] },
    options: { window: [1, 0], alibi: [0.5, 0.125] },
  },
  {
    name: 'window [0, 1] with alibi true and validLens, Tq 4 > Tk 3 (rows before the diagonal empty)',
    shapes: { q: [2, 4, 4], k: [2, 3, 4], v: [2, 3, 2] },
    options: { window: [0, 1], alibi: true, validLens: [3, 2] },
  },
  {
    name: 'd2l maskFill -1e6 with a row of valid length 0',
    shapes: { q: [2, 3, 4], k: [2, 5, 4], v: [2, 5, 3] },
    options: {
      validLens: [
        [2, 0, 5],
        [1, 3, 4],
      ],
      maskFill: -1e6,
    },
  },
];

const SCORING_CASES = [
  { scoring: 'dot', shapes: { q: [2, 3, 4], k: [2, 4, 4], v: [2, 4, 2] }, params: {}, extra: { scale: 0.5 } },
  { scoring: 'general', shapes: { q: [2, 3, 4], k: [2, 4, 3], v: [2, 4, 2] }, params: { w: [4, 3] }, extra: { validLens: [4, 2] } },
  { scoring: 'concat', shapes: { q: [2, 3, 3], k: [2, 4, 2], v: [2, 4, 2] }, params: { w: [5] }, extra: { causal: 'bottom-right' } },
  { scoring: 'additive', shapes: { q: [2, 3, 3], k: [2, 4, 2], v: [2, 4, 2] }, params: { wq: [3, 5], wk: [2, 5], wv: [5] }, extra: { validLens: [3, 4] } },
  {
    scoring: 'additive',
    shapes: { q: [2, 3, 3], k: [2, 4, 2], v: [2, 4, 2] },
    params: { wq: [3, 5], wk: [2, 5], wv: [5] },
    extra: { window: [1, 1], alibi: [0.5] },
  },
  { scoring: 'concat', shapes: { q: [2, 4, 3], k: [2, 4, 2], v: [2, 4, 2] }, params: { w: [5] }, extra: { window: [1, -1], alibi: true } },
];

describe.each(BACKENDS)('backward functions agree with finite differences ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  it('maskedSoftmaxBackward (validLens (B, Tq) with an empty row, causal bottom-right)', () => {
    const options = {
      validLens: [
        [5, 0, 2],
        [3, 5, 1],
      ],
      causal: 'bottom-right',
    };
    const { x } = randomInputs(1, { x: [2, 3, 5] }, 2);
    const g = randomTensor(seededRandom(2), [2, 3, 5]);
    const y = attn.maskedSoftmax(x, options);
    const dx = attn.maskedSoftmaxBackward(y, g, options);
    checkGradients('maskedSoftmax', { x }, { x: dx }, (inp) => dot64(attn.maskedSoftmax(inp.x, options), g));
  });

  it.each(SDPA_CASES.map((c) => [c.name, c]))('scaledDotProductAttentionBackward: %s', (name, c) => {
    const inputs = randomInputs(3, c.shapes);
    const { q, k, v } = inputs;
    const out = attn.scaledDotProductAttention(q, k, v, c.options).output;
    const g = randomTensor(seededRandom(4), out.shape);
    const { dq, dk, dv } = attn.scaledDotProductAttentionBackward(q, k, v, g, c.options);
    checkGradients(name, inputs, { q: dq, k: dk, v: dv }, (inp) => dot64(attn.scaledDotProductAttention(inp.q, inp.k, inp.v, c.options).output, g));
  });

  it('maskedSoftmaxBackward with a window and ALiBi', () => {
    const options = { window: [2, 1], alibi: [0.75, 0.25] };
    const { x } = randomInputs(13, { x: [1, 2, 4, 6] }, 2);
    const g = randomTensor(seededRandom(14), [1, 2, 4, 6]);
    const dx = attn.maskedSoftmaxBackward(attn.maskedSoftmax(x, options), g, options);
    checkGradients('maskedSoftmax window alibi', { x }, { x: dx }, (inp) => dot64(attn.maskedSoftmax(inp.x, options), g));
  });

  it("attentionBackward({ scoring: 'additive' }) (validLens, causal) including dwq, dwk, dwv", () => {
    const inputs = randomInputs(5, { q: [2, 3, 3], k: [2, 4, 2], v: [2, 4, 3], wq: [3, 4], wk: [2, 4], wv: [4] });
    const options = (inp) => ({ scoring: 'additive', params: { wq: inp.wq, wk: inp.wk, wv: inp.wv }, validLens: [3, 2], causal: 'bottom-right' });
    const out = attn.attention(inputs.q, inputs.k, inputs.v, options(inputs)).output;
    const g = randomTensor(seededRandom(6), out.shape);
    const grads = attn.attentionBackward(inputs.q, inputs.k, inputs.v, g, options(inputs));
    checkGradients('additive', inputs, { q: grads.dq, k: grads.dk, v: grads.dv, wq: grads.dwq, wk: grads.dwk, wv: grads.dwv }, (inp) =>
      dot64(attn.attention(inp.q, inp.k, inp.v, options(inp)).output, g),
    );
  });

  it.each(SCORING_CASES.map((c) => [c.extra.window ? `${c.scoring} with a window and ALiBi` : c.scoring, c]))(
    'attentionBackward with scoring %s, parameters included',
    (label, c) => {
      const { scoring } = c;
      const inputs = randomInputs(7, { ...c.shapes, ...c.params });
      const paramNames = Object.keys(c.params);
      const options = (inp) => ({ scoring, params: Object.fromEntries(paramNames.map((n) => [n, inp[n]])), ...c.extra });
      const out = attn.attention(inputs.q, inputs.k, inputs.v, options(inputs)).output;
      const g = randomTensor(seededRandom(8), out.shape);
      const grads = attn.attentionBackward(inputs.q, inputs.k, inputs.v, g, options(inputs));
      const analytic = { q: grads.dq, k: grads.dk, v: grads.dv };
      for (const n of paramNames) analytic[n] = grads[`d${n}`];
      checkGradients(`attention ${label}`, inputs, analytic, (inp) => dot64(attn.attention(inp.q, inp.k, inp.v, options(inp)).output, g));
    },
  );

  const LAYERS = [
    {
      name: 'selfAttention (causal, validLens)',
      make: () => attn.selfAttention({ dIn: 3, dQ: 2, dOut: 3, seed: 5, causal: true }),
      x: [2, 4, 3],
      forward: { validLens: [4, 3] },
    },
    {
      name: 'multiHeadAttention (heads 4, kvHeads 2, causal bottom-right)',
      make: () => attn.multiHeadAttention({ dModel: 8, heads: 4, kvHeads: 2, causal: 'bottom-right', seed: 6 }),
      x: [2, 3, 8],
      forward: {},
    },
    {
      name: 'multiHeadAttention (heads 4, kvHeads 1, rope interleaved, window [1, 0], alibi true)',
      make: () => attn.multiHeadAttention({ dModel: 8, heads: 4, kvHeads: 1, rope: { interleaved: true }, window: [1, 0], alibi: true, seed: 7 }),
      x: [1, 4, 8],
      forward: {},
    },
  ];

  it.each(LAYERS.map((c) => [c.name, c]))('layer backward: %s (dx and every weight)', (name, c) => {
    const layer = c.make();
    const weights = layer.parameters();
    const x = randomTensor(seededRandom(9), c.x);
    const out = layer.forward(x, { ...c.forward, trace: false }).output;
    const g = randomTensor(seededRandom(10), out.shape);
    const grads = layer.backward(g);
    const inputs = { x, ...weights };
    const analytic = { x: grads.dx, wq: grads.dwq, wk: grads.dwk, wv: grads.dwv };
    if (weights.wo) analytic.wo = grads.dwo;
    checkGradients(name, inputs, analytic, (inp) => {
      const { x: xi, ...w } = inp;
      layer.setParameters(w);
      return dot64(layer.forward(xi, { ...c.forward, trace: false }).output, g);
    });
    layer.dispose();
  });

  it('the finite-difference check itself catches a wrong gradient (a halved dq)', () => {
    const inputs = randomInputs(11, { q: [1, 2, 3], k: [1, 3, 3], v: [1, 3, 2] });
    const out = attn.scaledDotProductAttention(inputs.q, inputs.k, inputs.v).output;
    const g = randomTensor(seededRandom(12), out.shape);
    const { dq } = attn.scaledDotProductAttentionBackward(inputs.q, inputs.k, inputs.v, g);
    const halved = { data: dq.data.map((x) => x / 2), shape: dq.shape };
    let caught = false;
    try {
      checkGradients('halved', inputs, { q: halved }, (inp) => dot64(attn.scaledDotProductAttention(inp.q, inp.k, inp.v).output, g));
    } catch {
      caught = true;
    }
    if (!caught) throw new Error('a halved dq passed the finite-difference check: the check cannot fail');
  });
});
