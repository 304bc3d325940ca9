// Property-based fuzzing of rope and ropeBackward (index.d.ts) on every build: random ranks, sizes,
// bases, offsets, pair layouts, values and input forms, with at most one fault per call. Each call
// must return the float64 rotation (tests/reference's ropeReference) within float32 rounding, or
// throw a TypeError or RangeError naming the argument at fault, under the contract of
// tests/fuzz/contract.js (no changed input, no changed wasm memory).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../js/support/backends.js';
import { ropeReference } from '../reference/index.js';
import { expectNamedError, expectNear, guardedCall } from './contract.js';
import { fuzzTimeout } from './settings.js';
import { assertWithOutcomes, loadedBuild } from './suite.js';
import { FORMS, STYLES, inForm, makeTensor } from './values.js';

const EPS = 2 ** -24; // float32 unit roundoff

const ropeSpec = fc.record({
  backward: fc.boolean(),
  lead: fc.array(fc.constantFrom(1, 2, 3), { maxLength: 2 }), // (B, H, ...) before (T, d)
  T: fc.constantFrom(1, 2, 3, 5, 8, 17),
  d: fc.constantFrom(2, 4, 6, 8, 16, 64),
  base: fc.constantFrom(undefined, 10000, 500000, 2.5),
  offset: fc.constantFrom(undefined, 0, 7, 4096, 100000),
  interleaved: fc.constantFrom(undefined, false, true),
  x: fc.record({ style: fc.constantFrom(...STYLES), seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }), form: fc.constantFrom(...FORMS) }),
  // No fault in 3 cases of 5, so that results and named errors are both common.
  fault: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constantFrom('odd-d', 'rank', 'nan', 'base', 'offset', 'interleaved', 'unknown-option'),
        pick: fc.nat(1 << 20),
      }),
    },
  ),
});

const pickOf = (list, pick) => list[pick % list.length];

/** The call a spec describes: { input, options, name, names (what an error must name), shape }. */
function buildRope(s) {
  const name = s.backward ? 'dOutput' : 'x';
  const d = s.fault?.kind === 'odd-d' ? s.d + 1 : s.d;
  const shape = s.fault?.kind === 'rank' ? [d] : [...s.lead, s.T, d];
  const t = makeTensor(shape, s.x.style, s.x.seed);
  const options = {};
  for (const key of ['base', 'offset', 'interleaved']) if (s[key] !== undefined) options[key] = s[key];
  const pick = s.fault?.pick ?? 0;
  let names = null;
  switch (s.fault?.kind) {
    case 'odd-d':
    case 'rank':
      names = [name];
      break;
    case 'nan':
      t.data[pick % t.data.length] = pickOf([NaN, Infinity, -Infinity], pick >> 4);
      names = [name];
      break;
    case 'base':
      options.base = pickOf([0, -1, NaN, Infinity, 1e39, 1e-46, '10'], pick);
      names = ['base'];
      break;
    case 'offset':
      options.offset = pickOf([-1, 1.5, NaN, 2 ** 53, '3'], pick);
      names = ['offset'];
      break;
    case 'interleaved':
      options.interleaved = pickOf(['yes', 1, null], pick);
      names = ['interleaved'];
      break;
    case 'unknown-option':
      options[pickOf(['bse', 'ofset', 'causal', 'window'], pick)] = 1;
      names = ['bse', 'ofset', 'causal', 'window'];
      break;
    default:
  }
  return { t, input: inForm(t, s.x.form), options, name, names, shape };
}

/** One case: 'result' (checked against float64) or 'error' (checked to name its argument). */
function runRope(attn, module, s) {
  const c = buildRope(s);
  const call = () => (s.backward ? attn.ropeBackward(c.input, c.options) : attn.rope(c.input, c.options));
  const outcome = guardedCall(module, [c.input, c.options], call);
  const what = `${s.backward ? 'ropeBackward' : 'rope'} ${JSON.stringify(s)}`;
  if (c.names) {
    expectNamedError(outcome, c.names, what);
    return 'error';
  }
  expect(outcome.error, `${what}: threw ${outcome.error?.message}`).toBeUndefined();
  expect(outcome.result.shape).toEqual(c.shape);
  const expected = ropeReference(c.t, c.options, s.backward ? -1 : 1);
  // Each output is a cos + b sin of its pair (a, b), cos and sin rounded to float32 once: a few
  // roundings of |a| + |b|. The floor: a product of a subnormal input rounds by up to 2^-149.
  const d = c.shape[c.shape.length - 1];
  const pairAbs = new Float64Array(expected.length);
  const interleaved = c.options.interleaved === true;
  for (let row = 0; row < expected.length / d; row++)
    for (let p = 0; p < d / 2; p++) {
      const [ia, ib] = interleaved ? [2 * p, 2 * p + 1] : [p, p + d / 2];
      const sum = Math.abs(c.t.data[row * d + ia]) + Math.abs(c.t.data[row * d + ib]);
      pairAbs[row * d + ia] = pairAbs[row * d + ib] = sum;
    }
  expectNear(outcome.result, expected, pairAbs, { factor: 8 * EPS, floor: 2 ** -126 }, what);
  return 'result';
}

describe.each(BACKENDS)('fuzz: rope ($backend)', (which) => {
  const b = loadedBuild(which);

  it(
    'rope and ropeBackward match float64 or name the argument at fault',
    () => {
      assertWithOutcomes(ropeSpec, (s) => runRope(b.attn, b.module, s), 200);
    },
    fuzzTimeout(200),
  );
});
