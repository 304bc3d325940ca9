// Size edits: each returns a new state with the arrays grown or cut, then conformed. Growing
// leaves holes (null) that conform() fills with seeded values, since conform() reads every size
// from the arrays themselves.
import { conform } from './conform.js';
import { LIMITS, sizesOf } from './model.js';

/** `array` cut or grown to n entries, new ones from make(i). */
const toLength = (array, n, make) => Array.from({ length: n }, (_, i) => (i < array.length ? array[i] : make(i)));
/** Every row of matrix m cut or grown to n entries. */
const widen = (m, n) => m.map((row) => toLength(row, n, () => null));
/** A matrix m cut or grown to n rows. */
const lengthen = (m, n) => toLength(m, n, () => [null]);
const label = (prefix) => (i) => `${prefix}${i + 1}`;

/** Sizes a control can set, per source, and how each reshapes the arrays. */
const SETTERS = {
  self: {
    tokens: (s, n) => ({ ...s, x: lengthen(s.x, n), tokens: toLength(s.tokens, n, label('t')) }),
    dIn: (s, n) => ({
      ...s,
      x: widen(s.x, n),
      wq: s.wq.map((w) => lengthen(w, n)),
      wk: s.wk.map((w) => lengthen(w, n)),
      wv: s.wv.map((w) => lengthen(w, n)),
      wo: s.wo && widen(s.wo, n),
    }),
    dQ: (s, n) => ({ ...s, wq: s.wq.map((w) => widen(w, n)), wk: s.wk.map((w) => widen(w, n)) }),
    dV: (s, n) => ({ ...s, wv: s.wv.map((w) => widen(w, n)), wo: s.wo && lengthen(s.wo, s.wq.length * n) }),
    // More than one head brings W^O (seeded) when the state had none.
    heads: (s, n) => ({
      ...s,
      heads: n,
      wq: s.wq.slice(0, n),
      wk: s.wk.slice(0, n),
      wv: s.wv.slice(0, n),
      wo: s.wo ? lengthen(s.wo, n * s.wv[0][0].length) : n > 1 ? undefined : null,
    }),
  },
  qkv: {
    batch: (s, n) => {
      const more = (stack) => toLength(stack, n, () => stack[0].map((row) => row.map(() => null)));
      return { ...s, q: more(s.q), k: more(s.k), v: more(s.v) };
    },
    queries: (s, n) => ({ ...s, q: s.q.map((m) => lengthen(m, n)), tokens: toLength(s.tokens, n, label('q')) }),
    keys: (s, n) => ({ ...s, k: s.k.map((m) => lengthen(m, n)), v: s.v.map((m) => lengthen(m, n)), keyTokens: toLength(s.keyTokens, n, label('k')) }),
    d: (s, n) => ({ ...s, q: s.q.map((m) => widen(m, n)), k: s.k.map((m) => widen(m, n)) }),
    dv: (s, n) => ({ ...s, v: s.v.map((m) => widen(m, n)) }),
  },
};

/** The size controls of a state's source: [name, value] pairs. */
export function sizeControls(state) {
  const z = sizesOf(state);
  return state.source === 'qkv'
    ? [
        ['batch', z.B],
        ['queries', z.Tq],
        ['keys', z.Tk],
        ['d', z.d],
        ['dv', z.dv],
      ]
    : [
        ['tokens', z.Tq],
        ['dIn', z.dIn],
        ['dQ', z.d],
        ['dV', z.dv],
        ['heads', z.H],
      ];
}

/** A new state with size `name` set to n (grown with seeded values, or cut). */
export function setSize(state, name, n) {
  const set = SETTERS[state.source][name];
  if (!set) throw new TypeError(`setSize: no size '${name}' for source '${state.source}'`);
  return conform(set(state, n));
}

/** The size each list of token labels sets, per source: X's rows, or the queries and the keys. */
const TOKEN_SIZES = { self: { tokens: 'tokens' }, qkv: { tokens: 'queries', keyTokens: 'keys' } };

/** The token label fields of a state's source: ['tokens'] or ['tokens', 'keyTokens']. */
export const tokenFields = (state) => Object.keys(TOKEN_SIZES[state.source]);

/**
 * A new state whose `field` ('tokens', or 'keyTokens' for a qkv state) holds `labels`, resized to
 * their count (new rows seeded); a RangeError when the count is outside LIMITS.tokens.
 */
export function setTokens(state, field, labels) {
  const size = TOKEN_SIZES[state.source][field];
  if (!size) throw new TypeError(`setTokens: no token field '${field}' for source '${state.source}'`);
  const [min, max] = LIMITS.tokens;
  if (labels.length < min || labels.length > max) throw new RangeError(`setTokens: ${labels.length} tokens, expected ${min} to ${max}`);
  return conform({ ...setSize(state, size, labels.length), [field]: labels });
}

/** The sizes of `state` that differ from those of `reference`: [name, reference's, state's]. */
export function sizeChanges(state, reference) {
  if (state.source !== reference.source) return [];
  const before = new Map(sizeControls(reference));
  return sizeControls(state)
    .filter(([name, n]) => before.get(name) !== n)
    .map(([name, n]) => [name, before.get(name), n]);
}
