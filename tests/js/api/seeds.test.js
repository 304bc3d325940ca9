// The seeds' worked examples with the exact values of docs/semantics.md ("The seeds' worked
// examples, computed exactly"), through the public API, on both builds.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose, seededRandom, randomTensor, tensor } from '../support/numeric.js';
import { maskedSoftmaxReference } from '../../reference/index.js';
import { SEED_002 } from '../../support/seed-002.js';
import { SEED_004, SEED_004_QUOTED } from '../../support/seed-004.js';

// docs/semantics.md quotes weights to 4 decimals and outputs to 3: half a unit of the last quoted digit,
// plus float32 rounding (far smaller), is the most a correct result can differ from the quote.
const FOUR_DECIMALS = { rtol: 0, atol: 5e-5 + 1e-6 };
const THREE_DECIMALS = { rtol: 0, atol: 5e-4 + 1e-6 };
// Exact small-integer products (Q = X Wq with integer X and W) are exact in float32.
const EXACT = { rtol: 0, atol: 0 };

// seed 004 (tests/support/seed-004.js): X, Wq = I, Wk, Wv; K = X Wk and V = X Wv as the seed
// computes them (those are right); the weights and output as docs/semantics.md quotes them.
const seed004 = {
  ...Object.fromEntries(Object.entries({ ...SEED_004, ...SEED_004_QUOTED }).map(([name, rows]) => [name, tensor(rows)])),
  // With the causal mask of the seed's code (j > i masked): row 0 sees only key 0, row 1 keys 0..1
  // with weights 1 / (1 + e^{-2/sqrt 2}) = 0.8044 and 0.1956, row 2 is unchanged.
  causalWeights: tensor([
    [1, 0, 0],
    [0.8044, 0.1956, 0],
    [0.007, 0.0002, 0.9928],
  ]),
  causalOutput: tensor([
    [3, 2],
    [2.609, 1.804],
    [3.992, 1.007],
  ]),
};

// seed 002, corrected (its text multiplies X row 1 by W^Q wrongly; docs/semantics.md has the right values).
const seed002 = {
  x: tensor(SEED_002.x),
  wq: tensor(SEED_002.wq),
  wk: tensor(SEED_002.wk),
  wv: tensor(SEED_002.wv),
  q: tensor([
    [1, 1, 1],
    [2, 2, 2],
    [2, 2, 2],
  ]),
  k: tensor([
    [0, 2, 1],
    [4, 0, 2],
    [2, 2, 2],
  ]),
  v: tensor([
    [0, 1, 1],
    [4, 2, 2],
    [2, 2, 2],
  ]),
  weights: tensor([
    [0.081, 0.459, 0.459],
    [0.015, 0.492, 0.492],
    [0.015, 0.492, 0.492],
  ]),
  output: tensor([
    [2.756, 1.919, 1.919],
    [2.954, 1.985, 1.985],
    [2.954, 1.985, 1.985],
  ]),
};

// seed 001 (d2l): keys all ones (2, 10, 2), values arange(40) as (1, 10, 4) repeated twice,
// valid lengths [2, 6]. Identical keys give uniform weights over the valid keys, so the output is the
// mean of the first 2 (resp. 6) value rows whatever the queries: [2, 3, 4, 5] and [10, 11, 12, 13].
function d2lKeysValues() {
  const keys = { data: new Float32Array(2 * 10 * 2).fill(1), shape: [2, 10, 2] };
  const values = { data: new Float32Array(2 * 10 * 4), shape: [2, 10, 4] };
  for (let i = 0; i < 80; i++) values.data[i] = i % 40;
  return { keys, values };
}
const d2lOutput = tensor([[[2, 3, 4, 5]], [[10, 11, 12, 13]]]);
// The means are exact in real numbers; float32 sums of up to 6 terms <= 39 round at ~4e-6.
const D2L_TOLERANCE = { rtol: 0, atol: 1e-5 };

describe.each(BACKENDS)('the seeds worked examples ($backend)', (build) => {
  let attn;
  beforeAll(async () => {
    attn = await loadBackend(build);
  });

  describe('seed 004 (X = [[1,2],[0,1],[3,1]], scale 1/sqrt 2)', () => {
    it('scaledDotProductAttention gives the weights and output of docs/semantics.md', () => {
      const { output, weights } = attn.scaledDotProductAttention(seed004.x, seed004.k, seed004.v, {
        returnWeights: true,
      });
      expectClose(weights, seed004.weights, { ...FOUR_DECIMALS, label: 'P' });
      expectClose(output, seed004.output, { ...THREE_DECIMALS, label: 'out' });
    });

    it('scaledDotProductAttention with the causal mask of its code gives out = [[3, 2], [2.609, 1.804], [3.992, 1.007]]', () => {
      const { output, weights } = attn.scaledDotProductAttention(seed004.x, seed004.k, seed004.v, {
        causal: true,
        returnWeights: true,
      });
      expectClose(weights, seed004.causalWeights, { ...FOUR_DECIMALS, label: 'P causal' });
      expectClose(output, seed004.causalOutput, { ...THREE_DECIMALS, label: 'out causal' });
    });

    for (const causal of [false, true]) {
      it(`selfAttention with the given weights${causal ? ' and causal: true' : ''} traces Q, K, V, P and out`, () => {
        const layer = attn.selfAttention({ wq: seed004.wq, wk: seed004.wk, wv: seed004.wv, causal });
        const { output, trace } = layer.forward(seed004.x);
        expectClose(trace.q, seed004.x, { ...EXACT, label: 'Q = X Wq' });
        expectClose(trace.k, seed004.k, { ...EXACT, label: 'K = X Wk' });
        expectClose(trace.v, seed004.v, { ...EXACT, label: 'V = X Wv' });
        const [P, out] = causal ? [seed004.causalWeights, seed004.causalOutput] : [seed004.weights, seed004.output];
        expectClose(trace.weights, P, { ...FOUR_DECIMALS, label: 'P' });
        expectClose(output, out, { ...THREE_DECIMALS, label: 'out' });
        expectClose(trace.output, out, { ...THREE_DECIMALS, label: 'trace.output' });
        layer.dispose();
      });
    }
  });

  describe('seed 002 corrected', () => {
    it("selfAttention traces the correct Q, K, V, weights and output (not the text's)", () => {
      const layer = attn.selfAttention({ wq: seed002.wq, wk: seed002.wk, wv: seed002.wv });
      const { output, trace } = layer.forward(seed002.x);
      expectClose(trace.q, seed002.q, { ...EXACT, label: 'Q' });
      expectClose(trace.k, seed002.k, { ...EXACT, label: 'K' });
      expectClose(trace.v, seed002.v, { ...EXACT, label: 'V' });
      expectClose(trace.weights, seed002.weights, { ...THREE_DECIMALS, label: 'P' });
      expectClose(output, seed002.output, { ...THREE_DECIMALS, label: 'out' });
      // The text's wrong Q row 0 would be [1, 0, 1]: make sure we are not reproducing it.
      expect(Array.from(trace.q.data.slice(0, 3))).toEqual([1, 1, 1]);
      layer.dispose();
    });
  });

  describe('seed 001 (d2l): valid lengths [2, 6] over identical keys', () => {
    const { keys, values } = d2lKeysValues();
    const validLens = [2, 6];

    it('dot-product attention gives [[2, 3, 4, 5]] and [[10, 11, 12, 13]] whatever the queries', () => {
      for (const seed of [1, 2, 3]) {
        const queries = randomTensor(seededRandom(seed), [2, 1, 2], 2);
        const { output } = attn.scaledDotProductAttention(queries, keys, values, { validLens });
        expectClose(output, d2lOutput, { ...D2L_TOLERANCE, label: `queries seed ${seed}` });
      }
    });

    it('additive attention (query 20, key 2, hidden 8) gives the same, whatever the queries and weights', () => {
      for (const seed of [1, 2, 3]) {
        const rand = seededRandom(seed);
        const queries = randomTensor(rand, [2, 1, 20], 2);
        const weights = { wq: randomTensor(rand, [20, 8]), wk: randomTensor(rand, [2, 8]), wv: randomTensor(rand, [8]) };
        const { output } = attn.attention(queries, keys, values, { scoring: 'additive', params: weights, validLens });
        expectClose(output, d2lOutput, { ...D2L_TOLERANCE, label: `attention({ scoring: 'additive' }), seed ${seed}` });
        const d2lMode = attn.attention(queries, keys, values, { scoring: 'additive', params: weights, validLens, maskFill: -1e6 });
        expectClose(d2lMode.output, d2lOutput, { ...D2L_TOLERANCE, label: `additive, maskFill -1e6, seed ${seed}` });
      }
    });
  });

  describe("d2l's masked_softmax: fill mode vs the default", () => {
    // x (2, 2, 4); valid lengths per row [[1, 0], [2, 4]]: row (0, 1) has no visible key.
    const x = tensor([
      [
        [0.5, 0.1, 0.9, 0.3],
        [0.2, 0.8, 0.4, 0.6],
      ],
      [
        [0.7, 0.3, 0.1, 0.9],
        [0.15, 0.25, 0.35, 0.45],
      ],
    ]);
    const validLens = [
      [1, 0],
      [2, 4],
    ];
    // The float64 reference's masked softmax (tests/reference) under the same options.
    const reference = (options) => ({ data: maskedSoftmaxReference(x, options).y, shape: [2, 2, 4] });
    const ROWS = { rtol: 0, atol: 1e-6 }; // float32 softmax of 4 entries

    it('by default a row with valid length 0 is all zeros, the others are softmaxes of their prefix', () => {
      const y = attn.maskedSoftmax(x, { validLens });
      expectClose(y, reference({ validLens }), { ...ROWS, label: 'masked softmax' });
      expect(Array.from(y.data.subarray(4, 8))).toEqual([0, 0, 0, 0]);
    });

    it('with maskFill -1e6 (d2l) a row with valid length 0 is uniform, 1/4 each, the others unchanged', () => {
      const y = attn.maskedSoftmax(x, { validLens, maskFill: -1e6 });
      expectClose(y, reference({ validLens, maskFill: -1e6 }), { ...ROWS, label: 'd2l masked softmax' });
      expectClose(y.data.subarray(4, 8), { data: [0.25, 0.25, 0.25, 0.25], shape: [4] }, { ...ROWS, label: 'the row with valid length 0' });
    });

    it('d2l valid lengths [2, 3] (B) zero the keys beyond them and each row sums to 1', () => {
      const y = attn.maskedSoftmax(x, { validLens: [2, 3] });
      expectClose(y, reference({ validLens: [2, 3] }), { ...ROWS, label: 'valid lens (B)' });
    });
  });
});
