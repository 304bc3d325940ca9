// Scaled dot-product attention, forward and backward, on the calling thread:
//   q (B, H, Tq, d), k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv) -> out (B, H, Tq, dv), in q's rank;
//   + gradOutput (B, H, Tq, dv) -> dq, dk, dv in the shapes of q, k, v.
// The checks, the blocks and their readers are sdpa-call.js's, which the pool shares.
import { sdpaBackward, sdpaBackwardCall, sdpaForward, sdpaForwardCall } from './sdpa-call.js';

export function scaledDotProductAttention(module, q, k, v, options) {
  const { setup, flags } = sdpaForwardCall(module, q, k, v, options);
  return sdpaForward(module, setup, flags);
}

export function scaledDotProductAttentionBackward(module, q, k, v, gradOutput, options) {
  return sdpaBackward(module, sdpaBackwardCall(module, q, k, v, options), gradOutput);
}
