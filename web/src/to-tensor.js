// toTensor, public (also exported by index.js): figures, elements and io import it from here, since
// index.js would load the whole API with them (./figures eager 75 -> 109 KiB gzipped).
export { toTensor } from './boundary/tensor.js';
