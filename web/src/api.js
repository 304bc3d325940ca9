// The synchronous API object over one loaded wasm module: every operation bound to the module.
// Used by loadAttention() on the calling thread and by each pool worker (worker-main.js).
import { selfAttention, multiHeadAttention } from './layers.js';
import { preparePacked } from './packed.js';
import { rope, ropeBackward } from './rope.js';
import { additiveAttention, additiveAttentionBackward, attention, attentionBackward } from './scoring.js';
import { scaledDotProductAttention, scaledDotProductAttentionBackward } from './sdpa.js';
import { maskedSoftmax, maskedSoftmaxBackward } from './softmax.js';

const OPERATIONS = {
  maskedSoftmax,
  maskedSoftmaxBackward,
  scaledDotProductAttention,
  scaledDotProductAttentionBackward,
  additiveAttention,
  additiveAttentionBackward,
  attention,
  attentionBackward,
  selfAttention,
  multiHeadAttention,
  rope,
  ropeBackward,
};

/** The API object: every operation bound to `module`, plus which build answered. */
export function createAttention(module, backend) {
  preparePacked(module);
  const api = { backend, arch: module.archName() };
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    api[name] = (...args) => operation(module, ...args);
  }
  return Object.freeze(api);
}
