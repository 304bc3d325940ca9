// Property-based fuzzing of attn.transformer on every wasm build: random configurations (some the
// core cannot build) and calls (forward, gradients, trainStep) on random batches, some with ids
// outside the vocabulary, T above maxLength, targets of another shape or a learning rate that is
// not finite or negative. A valid case returns finite results of the right shapes; an invalid
// one throws a TypeError or RangeError naming the argument at fault; never a trap, a changed
// input or wasm memory left behind (contract.js), the model made and disposed inside the call.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../js/support/backends.js';
import { expectNamedError, guardedCall } from './contract.js';
import { fuzzTimeout } from './settings.js';
import { assertWithOutcomes, loadedBuild } from './suite.js';

const POSITIONS = ['learned', 'rope', 'alibi', 'none'];

// The faults a case may carry (at most one, so that about half the cases are valid), and the
// argument names an error must then give.
const FAULTS = {
  positions: ['positions'], // 'sinusoidal'
  dModel: ['dModel'], // not a multiple of heads
  kvHeads: ['heads', 'kvHeads'], // does not divide heads
  rope: ['rope'], // an odd head width with rotary positions
  learningRate: ['learningRate'], // negative, NaN or infinite (trainStep)
  T: ['tokens', 'maxLength'], // one position past maxLength
  id: ['tokens'], // an id below 0 or = vocab
  targets: ['targets'], // targets (B, T + 1) (gradients, trainStep)
};

const caseOf = fc
  .record({
    fault: fc.constantFrom(null, null, null, null, null, null, ...Object.keys(FAULTS), null, null, null, null, null, null),
    vocab: fc.integer({ min: 1, max: 12 }),
    heads: fc.integer({ min: 1, max: 4 }),
    halfWidth: fc.integer({ min: 1, max: 2 }), // head width 2 halfWidth: even, for rope
    kvOne: fc.boolean(), // kvHeads 1 (multi-query) or omitted
    layers: fc.integer({ min: 1, max: 2 }),
    maxLength: fc.integer({ min: 1, max: 8 }),
    positions: fc.constantFrom(...POSITIONS),
    window: fc.integer({ min: 0, max: 4 }),
    mlp: fc.integer({ min: 0, max: 6 }),
    tie: fc.boolean(),
    method: fc.constantFrom('forward', 'gradients', 'trainStep'),
    B: fc.integer({ min: 1, max: 3 }),
    Tdraw: fc.integer({ min: 1, max: 8 }),
    ids: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 27, maxLength: 27 }),
    badId: fc.constantFrom(-1, 'vocab'),
    targets: fc.boolean(), // given (the tokens reversed) or the default next tokens
    badRate: fc.constantFrom(-0.5, NaN, Infinity),
  })
  .map((c) => {
    const fault = c.fault;
    const heads = fault === 'kvHeads' || fault === 'dModel' ? Math.max(c.heads, 2) : c.heads;
    const headWidth = fault === 'rope' ? 2 * c.halfWidth - 1 : 2 * c.halfWidth;
    const method = (fault === 'learningRate' && 'trainStep') || (fault === 'targets' && c.method === 'forward' ? 'gradients' : c.method);
    const T = fault === 'T' ? c.maxLength + 1 : Math.min(c.Tdraw, c.maxLength);
    return {
      ...c,
      method,
      T,
      heads,
      dModel: heads * headWidth + (fault === 'dModel' ? 1 : 0),
      kvHeads: fault === 'kvHeads' ? heads + 1 : c.kvOne ? 1 : undefined,
      positions: fault === 'positions' ? 'sinusoidal' : fault === 'rope' ? 'rope' : c.positions,
      learningRate: fault === 'learningRate' ? c.badRate : 0.01,
      badId: fault === 'id' ? c.badId : null,
      targetsShape: fault === 'targets' ? 'longer' : c.targets ? 'same' : 'none',
    };
  });

/** The argument names the case's error must give, or null when the case is valid. */
function fault(c) {
  if (c.fault !== null) return FAULTS[c.fault];
  if (c.method !== 'forward' && c.targetsShape === 'none' && c.T === 1) return ['lossMask']; // the default targets count nothing at T = 1
  return null;
}

/** The case's ids of its batch (B, T) in [0, vocab), but the first one when badId says otherwise. */
function idsOf(c) {
  const ids = c.ids.slice(0, c.B * c.T).map((u) => Math.floor(u * c.vocab));
  if (c.badId !== null) ids[0] = c.badId === 'vocab' ? c.vocab : -1;
  return ids;
}

function runCase(attn, module, c) {
  const config = { vocab: c.vocab, dModel: c.dModel, layers: c.layers, heads: c.heads, maxLength: c.maxLength, positions: c.positions, mlp: c.mlp, tie: c.tie };
  if (c.kvHeads !== undefined) config.kvHeads = c.kvHeads;
  if (c.window > 0) config.window = c.window;
  const ids = idsOf(c);
  const tokens = { data: Int32Array.from(ids), shape: [c.B, c.T] };
  const options = {};
  if (c.targetsShape === 'same') options.targets = { data: Int32Array.from(ids).reverse(), shape: [c.B, c.T] };
  if (c.targetsShape === 'longer') options.targets = { data: new Int32Array(c.B * (c.T + 1)), shape: [c.B, c.T + 1] };
  if (c.method === 'forward') (Object.assign(options, { trace: true }), delete options.targets);
  if (c.method === 'trainStep') options.optimizer = { learningRate: c.learningRate };
  const outcome = guardedCall(module, [tokens, options], () => {
    const model = attn.transformer(config);
    try {
      return model[c.method](tokens, options);
    } finally {
      model.dispose();
    }
  });
  const names = fault(c);
  if (names !== null) {
    expectNamedError(outcome, names, JSON.stringify(c));
    return 'error';
  }
  expect(outcome.error, `${JSON.stringify(c)}: ${outcome.error?.message}`).toBeUndefined();
  const { result } = outcome;
  if (c.method === 'forward') {
    expect(result.logits.shape).toEqual([c.B, c.T, c.vocab]);
    expect(result.logits.data.every(Number.isFinite)).toBe(true);
    expect(result.trace.attentions.shape).toEqual([c.B, c.layers, c.heads, c.T, c.T]);
  } else {
    expect(Number.isFinite(result.loss), `loss ${result.loss}`).toBe(true);
  }
  return 'result';
}

describe.each(BACKENDS)('fuzz: transformer ($backend)', (which) => {
  const b = loadedBuild(which);
  beforeAll(() => b.attn.transformer({ vocab: 2, dModel: 2, layers: 1, heads: 1, maxLength: 2, positions: 'none', mlp: 0 }).dispose()); // the registry's first slot, once per module

  it(
    'random configurations and batches train or name the argument at fault, and leave wasm memory as they found it',
    () => {
      assertWithOutcomes(caseOf, (c) => runCase(b.attn, b.module, c), 150);
    },
    fuzzTimeout(150),
  );
});
