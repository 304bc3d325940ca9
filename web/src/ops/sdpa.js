// Scaled dot-product attention, forward and backward (shapes, checks and blocks: sdpa-call.js).
import { sdpaBackward, sdpaBackwardCall, sdpaForward, sdpaForwardCall } from './sdpa-call.js';

export function scaledDotProductAttention(module, q, k, v, options) {
  const { setup, flags } = sdpaForwardCall(module, q, k, v, options);
  return sdpaForward(module, setup, flags);
}

export function scaledDotProductAttentionBackward(module, q, k, v, gradOutput, options) {
  return sdpaBackward(module, sdpaBackwardCall(module, q, k, v, options), gradOutput);
}
