// Deterministic tensors for the fuzz cases (not a test file). A case holds only small numbers
// (sizes, a style, a seed), so fast-check prints it whole on failure and it can be replayed or
// copied into regressions.test.js; the elements come from these builders.
import { product, seededRandom } from '../js/support/numeric.js';

/**
 * How the elements are drawn:
 *   unit      uniform in [-2, 2)
 *   integers  -3..3: exact products, tied scores
 *   specials  zeros of both signs, subnormals, tiny and unit values mixed
 *   wide      magnitudes from 1e-15 to 1e15 (for tensors that enter linearly: v, gradients; two of
 *             them multiplied stay far inside float32's range, 3.4e38)
 *   huge      up to 3e38 (float32's largest): products overflow; see extremes.test.js
 *   e30       magnitudes from 1e-30 to 1e30: scores (products of two) beyond float32
 */
export const STYLES = ['unit', 'integers', 'specials'];
export const LINEAR_STYLES = [...STYLES, 'wide'];
export const EXTREME_STYLES = ['unit', 'wide', 'e30', 'huge'];

const SPECIALS = [0, -0, 1e-40, -1e-40, 1.4e-45, -1.4e-45, 1e-20, -1e-20, 1.17549435e-38, 0.5, -1, 1.5];

function element(style, rand) {
  const u = rand();
  switch (style) {
    case 'unit':
      return 2 * u;
    case 'integers':
      return Math.round(3 * u);
    case 'specials': {
      const pick = Math.floor(((u + 1) / 2) * (SPECIALS.length + 4));
      return pick < SPECIALS.length ? SPECIALS[pick] : 2 * rand();
    }
    case 'wide':
      return Math.sign(u) * 10 ** (15 * rand());
    case 'e30':
      return Math.sign(u) * 10 ** (30 * rand());
    case 'huge':
      return Math.sign(u) * 3e38 * Math.abs(rand());
    default:
      throw new Error(`unknown style ${style}`);
  }
}

/** A Float32Array tensor { data, shape } of `style` from `seed`. */
export function makeTensor(shape, style, seed) {
  const rand = seededRandom(seed);
  const data = new Float32Array(product(shape));
  for (let i = 0; i < data.length; i++) data[i] = element(style, rand);
  return { data, shape: [...shape] };
}

/**
 * The same tensor in one of the accepted input forms: { data: Float32Array }, { data: number[] },
 * { data: Float64Array }, nested arrays (rank >= 1, no empty axis), an object whose data and shape
 * are getters, or a Proxy of { data, shape }.
 */
export function inForm(t, form) {
  switch (form) {
    case 'numbers':
      return { data: Array.from(t.data), shape: [...t.shape] };
    case 'float64':
      return { data: Float64Array.from(t.data), shape: [...t.shape] };
    case 'nested':
      return t.shape.length > 0 && !t.shape.includes(0) ? nest(Array.from(t.data), t.shape) : t;
    case 'getters': {
      // A class instance whose data and shape are getters (each read gives the same arrays).
      const [data, shape] = [t.data, [...t.shape]];
      return new (class Held {
        get data() {
          return data;
        }
        get shape() {
          return shape;
        }
      })();
    }
    case 'proxy':
      return new Proxy({ data: t.data, shape: [...t.shape] }, {});
    default:
      return t;
  }
}
export const FORMS = ['typed', 'typed', 'typed', 'numbers', 'float64', 'nested', 'getters', 'proxy'];

function nest(flat, shape) {
  if (shape.length === 1) return flat;
  const stride = product(shape.slice(1));
  return Array.from({ length: shape[0] }, (_, i) => nest(flat.slice(i * stride, (i + 1) * stride), shape.slice(1)));
}
