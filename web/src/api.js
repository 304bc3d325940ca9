// The synchronous API object over one loaded build (a boundary/loader.js Runtime): every operation runs on
// the Runtime's live module, which a trap replaces (the layers run their methods the same way).
// Used by loadAttention() on the calling thread and by each pool worker (threads/worker-main.js).
import { selfAttention, multiHeadAttention } from './ops/layers.js';
import { rope, ropeBackward } from './ops/rope.js';
import { attention, attentionBackward } from './ops/scoring.js';
import { scaledDotProductAttention, scaledDotProductAttentionBackward } from './ops/sdpa.js';
import { maskedSoftmax, maskedSoftmaxBackward } from './ops/softmax.js';
import { createTransformer } from './train/transformer.js';

const OPERATIONS = {
  maskedSoftmax,
  maskedSoftmaxBackward,
  scaledDotProductAttention,
  scaledDotProductAttentionBackward,
  attention,
  attentionBackward,
  rope,
  ropeBackward,
};

/** The API object: every operation on `runtime`'s live module, plus which build answered. */
export function createAttention(runtime) {
  const api = {
    backend: runtime.backend,
    arch: runtime.module.archName(),
    build: runtime.build,
  };
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    api[name] = (...args) => runtime.call(name, (module) => operation(module, ...args));
  }
  api.selfAttention = (options) => selfAttention(runtime, options);
  api.multiHeadAttention = (options) => multiHeadAttention(runtime, options);
  api.transformer = (config) => createTransformer(runtime, config);
  return Object.freeze(api);
}
