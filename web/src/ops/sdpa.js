// Scaled dot-product attention, forward and backward (shapes, checks and blocks: sdpa-call.js).
import { sdpaBackward, sdpaBackwardCall, sdpaForward, sdpaForwardCall } from './sdpa-call.js';

export function scaledDotProductAttention(module, q, k, v, options) {
  // true: q, k, v are checked finite by the arena they are copied into (one SIMD scan in wasm).
  const { setup, flags } = sdpaForwardCall(module, q, k, v, options, true);
  return sdpaForward(module, setup, flags);
}

export function scaledDotProductAttentionBackward(module, q, k, v, dOutput, options) {
  // The same, dOutput and saved.output too (sdpaBackwardCall).
  return sdpaBackward(module, sdpaBackwardCall(module, q, k, v, options, true), dOutput);
}
