// Numeric helpers shared by the Vitest suites and the ONNX adapter (not a test file; no package
// imports, so plain Node scripts can use it too). Everything here runs in Node and in Chromium.
import { uniform } from '../../../web/model/state/random.js';

/** JSON numbers, plus the strings "-inf" / "inf" / "nan" that JSON cannot spell. */
export function decodeNumber(x) {
  if (typeof x === 'number') return x;
  if (x === '-inf' || x === '-Infinity') return -Infinity;
  if (x === 'inf' || x === 'Infinity') return Infinity;
  if (x === 'nan' || x === 'NaN') return NaN;
  throw new TypeError(`not a number in test data: ${JSON.stringify(x)}`);
}

/** { shape, data } from a JSON file -> a Tensor with a Float32Array. */
export function tensorFromJson(t) {
  return { shape: [...t.shape], data: Float32Array.from(t.data, decodeNumber) };
}

export function product(shape) {
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * Deterministic uniform numbers in [-1, 1): test inputs that do not depend on Math.random, from the
 * explorer's seeded generator (mulberry32, web/model/state/random.js) stretched from [0, 1).
 */
export function seededRandom(seed) {
  const next = uniform(seed);
  return () => next() * 2 - 1;
}

export function randomTensor(rand, shape, spread = 1) {
  const data = new Float32Array(product(shape));
  for (let i = 0; i < data.length; i++) data[i] = rand() * spread;
  return { data, shape: [...shape] };
}

function indexOf(flat, shape) {
  const idx = [];
  for (let a = shape.length - 1; a >= 0; a--) {
    idx.unshift(flat % shape[a]);
    flat = Math.floor(flat / shape[a]);
  }
  return `[${idx.join(', ')}]`;
}

/**
 * Element-wise |actual - expected| <= atol + rtol * |expected| (numpy.isclose, as ONNX's runner uses),
 * with equal infinities accepted and NaN never. On failure the message names the worst element.
 */
export function expectClose(actual, expected, { rtol, atol, label = 'tensor' }) {
  const shape = expected.shape ?? [expected.data.length];
  if (actual === undefined || actual === null) throw new Error(`${label}: missing from the result`);
  if (actual.shape && JSON.stringify([...actual.shape]) !== JSON.stringify([...shape]))
    throw new Error(`${label}: shape [${actual.shape}] where [${shape}] was expected`);
  const a = actual.data ?? actual;
  const e = expected.data ?? expected;
  if (a.length !== e.length) throw new Error(`${label}: ${a.length} elements where ${e.length} were expected`);
  let worst = -1;
  let worstExcess = 0;
  let failures = 0;
  for (let i = 0; i < e.length; i++) {
    const x = a[i];
    const y = e[i];
    let excess;
    if (Number.isNaN(x) || Number.isNaN(y)) excess = Number.isNaN(x) && Number.isNaN(y) ? 0 : Infinity;
    else if (!Number.isFinite(y) || !Number.isFinite(x)) excess = x === y ? 0 : Infinity;
    else excess = Math.abs(x - y) - (atol + rtol * Math.abs(y));
    if (excess > 0) {
      failures++;
      if (excess > worstExcess) {
        worstExcess = excess;
        worst = i;
      }
    }
  }
  if (failures > 0) {
    const x = a[worst];
    const y = e[worst];
    throw new Error(
      `${label}: ${failures} of ${e.length} elements differ; worst at ${indexOf(worst, shape)}: ` +
        `got ${x}, expected ${y} (|diff| ${Math.abs(x - y)}, allowed ${atol} + ${rtol} * |expected|)`,
    );
  }
}

/** Nested number arrays -> { data, shape } (Float32Array), for readable literals in tests. */
export function tensor(nested) {
  const shape = [];
  for (let t = nested; Array.isArray(t); t = t[0]) shape.push(t.length);
  return { data: Float32Array.from(nested.flat(Infinity)), shape };
}

/**
 * An attention problem that exercises the fused kernels' edges: GQA (4 heads on 2 kv heads), more
 * query rows (70) than one block, a bottom-right causal mask with fully masked rows (lse -Infinity)
 * and per-row valid lengths including 0, softcap. -> { q, k, v, dout, options }.
 */
export function sdpaProblem(seed) {
  const rand = seededRandom(seed);
  const [B, H, Hkv, Tq, Tk, d, dv] = [2, 4, 2, 70, 50, 16, 8];
  return {
    q: randomTensor(rand, [B, H, Tq, d]),
    k: randomTensor(rand, [B, Hkv, Tk, d]),
    v: randomTensor(rand, [B, Hkv, Tk, dv]),
    dout: randomTensor(rand, [B, H, Tq, dv]),
    options: {
      causal: 'bottom-right',
      softcap: 3,
      validLens: Array.from({ length: B }, (_, b) => Array.from({ length: Tq }, (_, i) => (i * 5 + b) % (Tk + 1))),
    },
  };
}
