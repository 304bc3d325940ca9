// A float64 scaled dot-product attention, forward and backward, written from SEMANTICS.md row by
// row, independently of the C++ core (not a test file). Rank 4 only: q (B, H, Tq, d),
// k (B, Hkv, Tk, d), v (B, Hkv, Tk, dv), gradOutput (B, H, Tq, dv).
// Masks: validLens (B) or (B, Tq) as nested arrays, causal 'top-left' | 'bottom-right', a
// boolean attnMask of shape (Tq, Tk) given as a Uint8Array, window [left, right] (-1 = open) and
// alibi: a list of H slopes (not `true`: the reference takes the slopes it is given).
// Also rope / ropeBackward on (N, T, d) from the rotation of each pair, written out.

/** Is key j visible from query i of batch b? Every given constraint must allow it. */
function visible({ validLens, causal, attnMask, window }, b, i, j, Tq, Tk) {
  if (validLens) {
    const len = Array.isArray(validLens[b]) ? validLens[b][i] : validLens[b];
    if (j >= len) return false;
  }
  if (causal === 'top-left' && j > i) return false;
  if (causal === 'bottom-right' && j > i + Tk - Tq) return false;
  if (attnMask && !attnMask.data[i * Tk + j]) return false;
  if (window) {
    const [left, right] = window;
    if (left >= 0 && j < i + Tk - Tq - left) return false;
    if (right >= 0 && j > i + Tk - Tq + right) return false;
  }
  return true;
}

/** ALiBi's bias of key j in row i of head h: -m_h |i + Tk - Tq - j| (0 without alibi). */
function alibiBias({ alibi }, h, i, j, Tq, Tk) {
  return alibi ? -alibi[h] * Math.abs(i + Tk - Tq - j) : 0;
}

/**
 * x (N, T, d) as { data, shape } -> Float64Array: pair (a, b) of row t turned by (offset + t) base^(-2c/d),
 * pairs (c, c + d/2) or, interleaved, (2c, 2c + 1). sign -1 turns back (the backward).
 */
export function ropeReference(x, { base = 10000, offset = 0, interleaved = false } = {}, sign = 1) {
  const d = x.shape[x.shape.length - 1];
  const T = x.shape[x.shape.length - 2];
  const y = new Float64Array(x.data.length);
  for (let row = 0; row < x.data.length / d; row++) {
    const t = row % T;
    for (let c = 0; c < d / 2; c++) {
      const angle = sign * (offset + t) * base ** ((-2 * c) / d);
      const [ia, ib] = interleaved ? [2 * c, 2 * c + 1] : [c, c + d / 2];
      const a = x.data[row * d + ia];
      const b = x.data[row * d + ib];
      y[row * d + ia] = a * Math.cos(angle) - b * Math.sin(angle);
      y[row * d + ib] = b * Math.cos(angle) + a * Math.sin(angle);
    }
  }
  return y;
}

/**
 * Returns { out, lse, dq, dk, dv } as Float64Arrays (dq/dk/dv only when gradOutput is given).
 * A row with no visible key has zero weights, zero output, zero gradient and lse = -Infinity.
 */
export function sdpaReference(q, k, v, options = {}, gradOutput = null) {
  const [B, H, Tq, d] = q.shape;
  const [, Hkv, Tk] = k.shape;
  const dv = v.shape[3];
  const scale = options.scale ?? 1 / Math.sqrt(d);
  const cap = options.softcap ?? 0;
  const out = new Float64Array(B * H * Tq * dv);
  const lse = new Float64Array(B * H * Tq);
  const dq = new Float64Array(q.data.length);
  const dk = new Float64Array(k.data.length);
  const dvOut = new Float64Array(v.data.length);
  const raw = new Float64Array(Tk); // scale * q.k before softcap
  const p = new Float64Array(Tk);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++) {
      const hk = Math.floor(h / (H / Hkv));
      const qBase = (b * H + h) * Tq * d;
      const kBase = (b * Hkv + hk) * Tk * d;
      const vBase = (b * Hkv + hk) * Tk * dv;
      for (let i = 0; i < Tq; i++) {
        const row = (b * H + h) * Tq + i;
        // pass 1: scores, softcap, mask, row max
        let max = -Infinity;
        for (let j = 0; j < Tk; j++) {
          let s = 0;
          for (let t = 0; t < d; t++) s += q.data[qBase + i * d + t] * k.data[kBase + j * d + t];
          raw[j] = scale * s;
          const z = cap > 0 ? cap * Math.tanh(raw[j] / cap) : raw[j];
          p[j] = visible(options, b, i, j, Tq, Tk) ? z + alibiBias(options, h, i, j, Tq, Tk) : -Infinity;
          max = Math.max(max, p[j]);
        }
        if (max === -Infinity) {
          lse[row] = -Infinity; // fully masked: zeros everywhere (already)
          continue;
        }
        // pass 2: exp and sum; pass 3: normalise and accumulate values
        let sum = 0;
        for (let j = 0; j < Tk; j++) sum += p[j] = Math.exp(p[j] - max);
        lse[row] = max + Math.log(sum);
        for (let j = 0; j < Tk; j++) {
          p[j] /= sum;
          for (let t = 0; t < dv; t++) out[row * dv + t] += p[j] * v.data[vBase + j * dv + t];
        }
        if (!gradOutput) continue;
        // backward: dP_j = dO . v_j, D = sum P dP, dS = P (dP - D) (times the softcap derivative)
        const dO = gradOutput.data.subarray(row * dv, (row + 1) * dv);
        let D = 0;
        const dP = new Float64Array(Tk);
        for (let j = 0; j < Tk; j++) {
          for (let t = 0; t < dv; t++) dP[j] += dO[t] * v.data[vBase + j * dv + t];
          D += p[j] * dP[j];
        }
        for (let j = 0; j < Tk; j++) {
          if (p[j] === 0) continue;
          let dS = p[j] * (dP[j] - D);
          if (cap > 0) dS *= 1 - Math.tanh(raw[j] / cap) ** 2;
          for (let t = 0; t < d; t++) {
            dq[qBase + i * d + t] += scale * dS * k.data[kBase + j * d + t];
            dk[kBase + j * d + t] += scale * dS * q.data[qBase + i * d + t];
          }
          for (let t = 0; t < dv; t++) dvOut[vBase + j * dv + t] += p[j] * dO[t];
        }
      }
    }
  return { out, lse, dq, dk, dv: dvOut };
}
