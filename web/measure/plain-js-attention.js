// Scaled dot-product attention in plain JS over Float32Arrays: the baseline the wasm builds are
// compared with in the speed panel and npm run bench. Same algorithm as the core (row streaming, P
// recomputed in the backward). q, k, v, out, dout, dq, dk, dv are (B H, T, d), d == dv.
// causal (top-left, j <= i) only shortens each row's loops: it is how one writes a mask in JS.

/** Keys row i may see: all T, or i + 1 under a causal mask. */
const visibleKeys = (i, T, causal) => (causal ? i + 1 : T);

/** p (n) = softmax(scale * q_i . k_j) over the first n keys of one query row; returns p. */
function weightsRow(q, qi, k, kv, n, d, scale, p) {
  let max = -Infinity;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let c = 0; c < d; c++) s += q[qi + c] * k[kv + j * d + c];
    p[j] = s * scale;
    if (p[j] > max) max = p[j];
  }
  let sum = 0;
  for (let j = 0; j < n; j++) sum += p[j] = Math.exp(p[j] - max);
  for (let j = 0; j < n; j++) p[j] /= sum;
  return p;
}

/** Every query row of every head with its weights p: visit(qi, kv, n), where the row starts at qi, its head's keys at kv. */
function forEachRow(q, k, heads, T, d, scale, causal, p, visit) {
  for (let h = 0; h < heads; h++) {
    const kv = h * T * d;
    for (let i = 0; i < T; i++) {
      const qi = kv + i * d;
      const n = visibleKeys(i, T, causal);
      weightsRow(q, qi, k, kv, n, d, scale, p);
      visit(qi, kv, n);
    }
  }
}

/** out_i = sum_j P_ij v_j */
export function attentionForward(q, k, v, out, heads, T, d, scale, causal = false) {
  const p = new Float32Array(T);
  forEachRow(q, k, heads, T, d, scale, causal, p, (qi, kv, n) => {
    out.fill(0, qi, qi + d);
    for (let j = 0; j < n; j++) for (let c = 0; c < d; c++) out[qi + c] += p[j] * v[kv + j * d + c];
  });
}

/** dP_j = dO_i . v_j, D = sum_j P_j dP_j, dS_j = P_j (dP_j - D); dq, dk, dv accumulate. */
export function attentionBackward(q, k, v, dout, dq, dk, dv, heads, T, d, scale, causal = false) {
  const p = new Float32Array(T);
  const dP = new Float32Array(T);
  dq.fill(0);
  dk.fill(0);
  dv.fill(0);
  forEachRow(q, k, heads, T, d, scale, causal, p, (qi, kv, n) => {
    let D = 0;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += dout[qi + c] * v[kv + j * d + c];
      dP[j] = s;
      D += p[j] * s;
    }
    for (let j = 0; j < n; j++) {
      const dS = p[j] * (dP[j] - D) * scale;
      const kj = kv + j * d;
      for (let c = 0; c < d; c++) {
        dq[qi + c] += dS * k[kj + c];
        dk[kj + c] += dS * q[qi + c];
        dv[kj + c] += p[j] * dout[qi + c];
      }
    }
  });
}
