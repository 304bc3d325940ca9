// Small helpers over the API's Tensor ({ data: Float32Array, shape }), row-major.

/** Nested arrays (any depth) -> a float32 Tensor. */
export function fromNested(nested) {
  const shape = [];
  for (let level = nested; Array.isArray(level); level = level[0]) shape.push(level.length);
  return { data: Float32Array.from(nested.flat(shape.length)), shape };
}

/** A tensor of zeros. */
export function zeros(shape) {
  return { data: new Float32Array(shape.reduce((a, b) => a * b, 1)), shape };
}

/** The last two axes of a tensor: [rows, cols] (a vector counts as one row). */
export function matrixSize(t) {
  const s = t.shape;
  return s.length === 1 ? [1, s[0]] : [s[s.length - 2], s[s.length - 1]];
}

/** Number of (rows, cols) matrices stacked in t (the batch). */
export function stackCount(t) {
  const [rows, cols] = matrixSize(t);
  return t.data.length / (rows * cols) || 1;
}

/** Element (b, i, j) of a stack of matrices. */
export function at(t, b, i, j) {
  const [rows, cols] = matrixSize(t);
  return t.data[(b * rows + i) * cols + j];
}

/** Row i of matrix b, as a plain array. */
export function rowOf(t, b, i) {
  const [rows, cols] = matrixSize(t);
  const start = (b * rows + i) * cols;
  return Array.from(t.data.subarray(start, start + cols));
}

/** Column j of matrix b, as a plain array. */
export function columnOf(t, b, j) {
  const [rows] = matrixSize(t);
  return Array.from({ length: rows }, (_, i) => at(t, b, i, j));
}

/** Matrices of the same rows side by side along their last axis: (.., R, C) each -> (.., R, n C). */
export function sideBySide(list) {
  const C = list[0].shape.at(-1);
  const n = list.length;
  const data = new Float32Array(list[0].data.length * n);
  list.forEach((t, k) => {
    for (let i = 0; i < t.data.length / C; i++) data.set(t.data.subarray(i * C, (i + 1) * C), (i * n + k) * C);
  });
  return { data, shape: [...list[0].shape.slice(0, -1), n * C] };
}
