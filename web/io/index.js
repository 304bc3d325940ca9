// attention-lab's file entry ('attention-lab/io'; types in index.d.ts): tensors in and out of
// .npy, .npz, .safetensors and JSON files, with no wasm and no dependencies. Bad files get a
// TypeError or RangeError naming the file and the problem; pickles are refused, never run.
export { readTensors } from './read.js';
export { writeNpy, writeSafetensors } from './write.js';
