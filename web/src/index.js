// attention-lab's public API: see index.d.ts for shapes and options.
export { loadAttention } from './ops/attention.js';
export { relaxedSimdSupported, simdSupported } from './boundary/loader.js';
export { toTensor } from './to-tensor.js';
