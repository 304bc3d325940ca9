// The state's position options (issue 12) as the API's options: the sliding window (a mask, in
// mask-options.js), ALiBi (one slope per head: the explorer runs each head on its own, so head h
// gets [slope_h] of the paper's slopes for all H heads, or of the state's own list) and RoPE (Q and K rotated after the
// projections, at positions 0 .. T - 1, as the layers do).
import { alibiSlopes } from '../../src/boundary/alibi-slopes.js';
import { sizesOf } from '../state/model.js';
import { zeros } from './tensors.js';

/** The window option, or undefined when both sides are open. */
export function windowOption(state) {
  const [left, right] = state.window;
  return left === -1 && right === -1 ? undefined : [left, right];
}

/** The ALiBi slope of every head (H): the paper's, the state's own, or null when ALiBi is off. */
export function alibiOf(state) {
  if (Array.isArray(state.alibi)) return state.alibi;
  return state.alibi === 'paper' ? alibiSlopes(sizesOf(state).H) : null;
}

/** rope()'s options, or null when RoPE is off. */
export function ropeOptions(state) {
  return state.rope === 'off' ? null : { base: state.ropeBase, interleaved: state.rope === 'interleaved' };
}

/** Rotates a head's q and k in place by the core's rope(); the projections stay in head.projected. */
export function rotateHead(attn, state, head) {
  const options = ropeOptions(state);
  if (!options) return;
  head.projected = { q: head.q, k: head.k };
  head.q = attn.rope(head.q, options);
  head.k = attn.rope(head.k, options);
}

/**
 * The ALiBi bias of one head, -slope |i + (Tk - Tq) - j| (B, Tq, Tk), as the core adds it: the
 * masked scores of all-zero queries and keys with this head's slope and no other mask.
 */
export function alibiBias(attn, { B, Tq, Tk }, slope) {
  const q = zeros([B, Tq, 1]);
  const kv = zeros([B, Tk, 1]);
  return attn.attention(q, kv, kv, { scale: 1, alibi: [slope], trace: true }).trace.masked;
}
