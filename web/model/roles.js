// What a file's tensors can be in the explorer, checked before anything changes:
//   weights  attention weights shown as they are, not recomputed: (T, Tk), (H, T, Tk),
//            (L, H, T, Tk) or (L, 1, H, T, Tk) (a stack of Hugging Face's per-layer outputs);
//   self     X (T, d_in) and Wq, Wk, Wv, each (d_in, d) or (H, d_in, d), or PyTorch nn.Linear's
//            (d, d_in) with transpose ticked;
//   qkv      Q (Tq, d) or (B, Tq, d), K (Tk, d) or (B, Tk, d), V (Tk, dv) or (B, Tk, dv).
// Each builder returns a state patch (nested arrays, as the state keeps them) or throws a
// RangeError naming the role, its shape and what it must be.
import { toAttentions } from './attentions.js';
import { LIMITS } from './state/model.js';

const fmt = (shape) => `(${shape.join(', ')})`;

/** data of `shape` -> nested arrays (numbers as float32 values). */
export function nested(data, shape, offset = 0) {
  if (shape.length === 1) return Array.from(data.subarray(offset, offset + shape[0]));
  const stride = shape.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: shape[0] }, (_, i) => nested(data, shape.slice(1), offset + i * stride));
}

/** The last two axes swapped: (..., R, C) -> (..., C, R). */
export function transposeLast(t) {
  const [R, C] = t.shape.slice(-2);
  const out = new Float32Array(t.data.length);
  for (let base = 0; base < t.data.length; base += R * C) {
    for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) out[base + j * R + i] = t.data[base + i * C + j];
  }
  return { data: out, shape: [...t.shape.slice(0, -2), C, R] };
}

function within(role, what, n, [lo, hi]) {
  if (n < lo || n > hi)
    throw new RangeError(
      `${role}: ${what} is ${n}; the explorer computes every number live and takes ${lo} to ${hi} (show large attentions as weights instead)`,
    );
}

/** Attention weights -> { data, shape: [L, H, T, Tk] } for the model view (heads() reads the layouts). */
export function weightsRole(t) {
  return toAttentions(t.shape.length === 2 ? { data: t.data, shape: [1, ...t.shape] } : t, 'weights');
}

/** X, Wq, Wk, Wv (transpose: { wq, wk, wv } booleans) -> a state patch for source 'self'. */
export function selfRole({ x, wq, wk, wv }, transpose = {}) {
  if (x.shape.length !== 2) throw new RangeError(`X: ${fmt(x.shape)} must be (T, d_in)`);
  const [T, dIn] = x.shape;
  within('X', 'T', T, LIMITS.tokens);
  within('X', 'd_in', dIn, LIMITS.width);
  const patch = { source: 'self', x: nested(x.data, x.shape) };
  let heads = null;
  for (const [key, label] of [
    ['wq', 'Wq'],
    ['wk', 'Wk'],
    ['wv', 'Wv'],
  ]) {
    let w = { wq, wk, wv }[key];
    if (transpose[key]) w = transposeLast(w);
    const s = w.shape.length === 2 ? [1, ...w.shape] : w.shape;
    if (s.length !== 3 || s[1] !== dIn) {
      const hint = w.shape.at(-1) === dIn ? ' (PyTorch nn.Linear weights are (out, in): tick transpose)' : '';
      throw new RangeError(`${label}: ${fmt(w.shape)} does not fit X ${fmt(x.shape)}: expected (${dIn}, d) or (H, ${dIn}, d)${hint}`);
    }
    if (heads !== null && s[0] !== heads) throw new RangeError(`${label}: ${s[0]} heads, but Wq has ${heads}`);
    heads = s[0];
    within(label, 'the number of heads', heads, LIMITS.heads);
    within(label, 'd', s[2], LIMITS.width);
    patch[key] = nested(w.data, s);
  }
  if (patch.wq[0][0].length !== patch.wk[0][0].length)
    throw new RangeError(`Wk: width ${patch.wk[0][0].length} must equal Wq's ${patch.wq[0][0].length} (queries and keys are compared)`);
  return patch;
}

/** Q, K, V -> a state patch for source 'qkv'. */
export function qkvRole({ q, k, v }) {
  const batch = (t, label, what) => {
    const s = t.shape.length === 2 ? [1, ...t.shape] : t.shape;
    if (s.length !== 3) throw new RangeError(`${label}: ${fmt(t.shape)} must be ${what}`);
    return s;
  };
  const sq = batch(q, 'Q', '(Tq, d) or (B, Tq, d)');
  const sk = batch(k, 'K', '(Tk, d) or (B, Tk, d)');
  const sv = batch(v, 'V', '(Tk, dv) or (B, Tk, dv)');
  if (sk[0] !== sq[0] || sv[0] !== sq[0]) throw new RangeError(`K, V: batch ${sk[0]} and ${sv[0]} must equal Q's ${sq[0]}`);
  if (sk[2] !== sq[2]) throw new RangeError(`K: ${fmt(k.shape)} must have Q's width d = ${sq[2]}`);
  if (sv[1] !== sk[1]) throw new RangeError(`V: ${fmt(v.shape)} must have K's ${sk[1]} rows (one value per key)`);
  within('Q', 'B', sq[0], LIMITS.batch);
  within('Q', 'Tq', sq[1], LIMITS.tokens);
  within('K', 'Tk', sk[1], LIMITS.tokens);
  within('Q', 'd', sq[2], LIMITS.width);
  within('V', 'dv', sv[2], LIMITS.width);
  return { source: 'qkv', q: nested(q.data, sq), k: nested(k.data, sk), v: nested(v.data, sv) };
}

/** The role a file most likely plays, and the tensors for each slot, from names and shapes. */
export function guessRoles(tensors) {
  const names = Object.keys(tensors);
  const find = (...words) => names.find((n) => words.some((w) => n.toLowerCase() === w)) ?? null;
  const pick = {
    x: find('x', 'input', 'inputs', 'hidden_states'),
    wq: find('wq', 'w_q', 'q_proj.weight', 'query.weight'),
    wk: find('wk', 'w_k', 'k_proj.weight', 'key.weight'),
    wv: find('wv', 'w_v', 'v_proj.weight', 'value.weight'),
    q: find('q', 'query', 'queries'),
    k: find('k', 'key', 'keys'),
    v: find('v', 'value', 'values'),
    weights: find('attention', 'attentions', 'attn', 'weights') ?? names.find((n) => tensors[n].shape.length >= 3) ?? names[0],
  };
  const role = pick.x && pick.wq && pick.wk && pick.wv ? 'self' : pick.q && pick.k && pick.v ? 'qkv' : 'weights';
  // nn.Linear weights are (out, in): offer the transpose when only that fits X.
  const transpose = {};
  if (pick.x) {
    const dIn = tensors[pick.x].shape.at(-1);
    for (const key of ['wq', 'wk', 'wv']) {
      const s = pick[key] && tensors[pick[key]].shape;
      transpose[key] = Boolean(s && s.at(-2) !== dIn && s.at(-1) === dIn);
    }
  }
  return { role, pick, transpose };
}

/**
 * A file's X, Wq, Wk, Wv (or Q, K, V) as a partial explorer state (with the file's tokens when
 * they fit), for <attn-figure src> and the command line's pipeline view; null when the file holds
 * attention weights alone. flipped: { wq, wk, wv } stored as nn.Linear's (out, in) (default: those
 * that only fit X transposed). Throws the builders' RangeError.
 */
export function fileStatePatch({ tensors, tokens }, flipped = null) {
  const { role, pick, transpose } = guessRoles(tensors);
  if (role === 'weights') return null;
  const t = (key) => tensors[pick[key]];
  const patch =
    role === 'self' ? selfRole({ x: t('x'), wq: t('wq'), wk: t('wk'), wv: t('wv') }, flipped ?? transpose) : qkvRole({ q: t('q'), k: t('k'), v: t('v') });
  const rows = role === 'self' ? patch.x.length : patch.q[0].length;
  if (tokens && tokens.length === rows) patch.tokens = tokens;
  return patch;
}
