// toTensor, public (also exported by index.js): figures, elements and io import it from here, since
// index.js would load the whole API with them (and ./figures' eager bundle with it).
export { toTensor } from './boundary/tensor.js';
