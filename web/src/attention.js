// loadAttention(): the public Attention object over one loaded wasm module (see index.d.ts).
import { selfAttention, multiHeadAttention } from './layers.js';
import { loadModule } from './loader.js';
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
};

/** The API object: every operation bound to `module`, plus which build answered. */
function createAttention(module, backend) {
  const api = { backend, arch: module.archName() };
  for (const [name, operation] of Object.entries(OPERATIONS)) {
    api[name] = (...args) => operation(module, ...args);
  }
  return Object.freeze(api);
}

/** Loads (once per backend) and returns the attention module: { simd, wasmUrl, wasmBinary }. */
export async function loadAttention(options = {}) {
  const { module, backend } = await loadModule(options);
  return createAttention(module, backend);
}
