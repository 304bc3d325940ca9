// The contract every fuzzed call must keep (not a test file), from issue 8 and index.d.ts:
//   - it returns, or throws a TypeError or RangeError whose message names the argument at fault;
//     never a WebAssembly trap (RuntimeError), a bare number, or another kind of error;
//   - it changes none of its inputs (snapshotted before the call, compared byte for byte after);
//   - it leaves wasm memory as it found it: the next malloc lands where it did before and the C
//     stack pointer is back (the check of tests/js/api/api-smoke.test.js, after every call);
//   - a result equals the float64 reference within a tolerance derived from float32 rounding.
import { expect } from 'vitest';

const EPS = 2 ** -24; // float32 unit roundoff

/** What a leak would change: where the next allocation lands, and the C stack pointer. */
export function heapState(module) {
  const probe = module._malloc(64);
  module._free(probe);
  return { nextMalloc: probe, stackPointer: module.stackSave() };
}

/** A copy of the data reachable from `value` (own data properties only: no getter is run). */
export function snapshot(value, seen = new Map()) {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (ArrayBuffer.isView(value)) return { view: value.constructor.name, bytes: new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice() };
  const copy = Array.isArray(value) ? [] : {};
  seen.set(value, copy);
  for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if ('value' in d) copy[key] = snapshot(d.value, seen);
  }
  return copy;
}

/** Byte-exact equality of two snapshots (Object.is for numbers: -0 and NaN payloads count). */
export function sameSnapshot(a, b, path = 'args') {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') {
    if (!Object.is(a, b)) return `${path}: ${String(a)} became ${String(b)}`;
    return null;
  }
  if (a.bytes && b.bytes) {
    if (a.view !== b.view || a.bytes.length !== b.bytes.length) return `${path}: became a ${b.view} of ${b.bytes.length} bytes`;
    for (let i = 0; i < a.bytes.length; i++) if (a.bytes[i] !== b.bytes[i]) return `${path}: byte ${i} changed`;
    return null;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const diff = sameSnapshot(a[key], b[key], `${path}.${key}`);
    if (diff) return diff;
  }
  return null;
}

/**
 * Runs call() under the contract's first three checks: -> { result } or { error } (a TypeError
 * or RangeError). `inputs` are the arguments whose data must not change.
 */
export function guardedCall(module, inputs, call) {
  const before = snapshot(inputs);
  const heap = heapState(module);
  let outcome;
  try {
    outcome = { result: call() };
  } catch (error) {
    outcome = { error };
  }
  const changed = sameSnapshot(before, snapshot(inputs));
  expect(changed, 'the call changed its input').toBeNull();
  expect(heapState(module), 'wasm memory after the call (next malloc address, C stack pointer)').toEqual(heap);
  if (outcome.error) {
    const e = outcome.error;
    const kind = e instanceof Error ? e.constructor.name : typeof e;
    expect(e instanceof TypeError || e instanceof RangeError, `threw ${kind}: ${String(e?.message ?? e)}`).toBe(true);
  }
  return outcome;
}

const asWord = (name) => new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_])`);

/** The outcome is an error (TypeError or RangeError) whose message names one of `names`. */
export function expectNamedError(outcome, names, what) {
  expect(outcome.error, `${what}: expected an error naming ${names.join(' or ')}, the call returned`).toBeDefined();
  const message = String(outcome.error.message);
  expect(
    names.some((n) => asWord(n).test(message)),
    `${what}: the message "${message}" names none of ${names.join(', ')}`,
  ).toBe(true);
}

/**
 * Tolerance of a float32 result built from sums and a softmax (the reference's abs companions):
 *   |actual - expected| <= 8 eps (n + 2 (d + 2) Z) abs + floor
 * n: the longest chain of sums an element goes through (Tk + d + dv + h, plus a few passes);
 * Z: the magnitude behind the scores that carry weight (float32 rounds a score by eps * Z, which
 * moves its weight by about that much relative, (d + 2) roundings per score, twice through the
 * normalisation); abs: the element's sum of absolute terms (a cancelling backward is judged against
 * the size of what cancelled, not against its tiny result); floor: float32 loses what falls below
 * its normal range, where float64 keeps it: a product of two 1e-20 inputs (1e-40) underflows to a
 * subnormal or 0 before later factors scale it up (found by the fuzzing: a dk of -1.9e-37 came
 * out 0), and exp underflows below 2^-149. Results under 2^-100 (8e-31) of the largest linear
 * input are therefore compared absolutely.
 * 8: exp and tanh are within a few ulps, plus the ulp each store costs. A wrong mask, a missing
 * term or a wrong head moves a result by 1e-2 of its size or more, orders above this.
 */
export function toleranceOf({ n, d, Z, linearMax = 1 }) {
  return { factor: 8 * EPS * (n + 2 * (d + 2) * Z), floor: 2 ** -100 * Math.max(1, linearMax) };
}

/** actual (Tensor or typed array) vs the float64 reference and its abs companion. */
export function expectNear(actual, expected, abs, { factor, floor }, label) {
  const a = actual?.data ?? actual;
  expect(a, `${label}: missing from the result`).toBeDefined();
  expect(a.length, `${label}: length`).toBe(expected.length);
  let worst = -1;
  let worstExcess = 0;
  for (let i = 0; i < expected.length; i++) {
    const [x, y] = [a[i], expected[i]];
    let excess;
    if (!Number.isFinite(y) || !Number.isFinite(x)) excess = Object.is(x, y) || x === y ? 0 : Infinity;
    else excess = Math.abs(x - y) - (factor * abs[i] + floor);
    if (excess > worstExcess || (Number.isNaN(excess) && worst < 0)) {
      worstExcess = Number.isNaN(excess) ? Infinity : excess;
      worst = i;
    }
  }
  if (worst >= 0) {
    const allowed = factor * abs[worst] + floor;
    throw new Error(`${label}: element ${worst} is ${a[worst]}, float64 reference ${expected[worst]} (allowed ${allowed}, |terms| ${abs[worst]})`);
  }
}
