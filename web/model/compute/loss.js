// The squared-error loss of the output O against a target Y (same shape, (B, Tq, dv)):
//   'half-sum'  L = 1/2 sum (O - Y)^2      dL/dO = O - Y
//   'mean'      L = 1/n sum (O - Y)^2      dL/dO = 2 (O - Y) / n,   n = B Tq dv entries
// (float64 sums; dO stored as float32, the type the core takes).

/** -> { loss, dO: Tensor } */
export function squaredError(output, target, kind) {
  const n = output.data.length;
  const dO = new Float32Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const diff = output.data[k] - target.data[k];
    sum += diff * diff;
    dO[k] = kind === 'mean' ? (2 * diff) / n : diff;
  }
  return { loss: kind === 'mean' ? sum / n : sum / 2, dO: { data: dO, shape: output.shape.slice() } };
}
