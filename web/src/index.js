// attention-lab's public API: see index.d.ts for shapes and options.
export { loadAttention } from './attention.js';
export { relaxedSimdSupported, simdSupported } from './loader.js';
