// The one float64 reference of the JS suites: every public operation, written from
// docs/semantics.md row by row, independently of the C++ core and of web/src (not a test file).
// matrices.js shows the same arithmetic as nested arrays for the browser suites (e2e, embed).
//   maskedSoftmaxReference / maskedSoftmaxBackwardReference   x of rank 1..4
//   attentionReference    q (B, H, Tq, dq), k (B, Hkv, Tk, dk), v (B, Hkv, Tk, dv) in rank 2..4,
//                         every scoring, softcap, every mask kind; forward and backward
//   sdpaReference         the rank-4 scaled-dot case of attentionReference (older suites' shape)
//   layerReference        selfAttention / multiHeadAttention forward and backward
// Masks: validLens (B) or (B, Tq) (nested arrays, typed arrays or { data, shape }), causal
// true | 'top-left' | 'bottom-right', attnMask bool (Uint8Array, 1 = may attend) or float
// (Float32Array, added; -Infinity masks) broadcast right-aligned to the scores in the caller's rank,
// maskFill (d2l: masked scores become this value instead of -Infinity), window [left, right]
// (-1 = that side open) and alibi: a list of H slopes (not `true`: the reference takes the slopes
// it is given), added like a float mask.
//   ropeReference         rope / ropeBackward on (..., T, d) from the rotation of each pair
//
// Every result tensor comes with its "abs" companion: the same sums taken over the absolute values
// of their terms. Float32 rounding of a sum is bounded by (terms) * eps * (sum of |terms|), so the
// companion is what a tolerance must scale with where a result cancels to ~0 (a backward's
// dS = P (dP - D), a gradient of keys that all look alike); see fuzz tolerance in tests/fuzz.

const AXES_OF_RANK = { 1: [3], 2: [2, 3], 3: [0, 2, 3], 4: [0, 1, 2, 3] };

const flatNumbers = (t) => (t.data ? Array.from(t.data) : Array.isArray(t) ? t.flat(Infinity) : Array.from(t));

/** ALiBi's bias of query i and key j: -slope |i + (Tk - Tq) - j|, from the bottom-right diagonal. */
export const alibiBias = (slope, i, j, Tq, Tk) => -slope * Math.abs(i + Tk - Tq - j);

/** (b, h, i, j) -> { visible, bias } for the mask options, the scores (B, H, Tq, Tk) seen in `rank`. */
export function maskOf(options, [B, H, Tq, Tk], rank) {
  const { validLens, causal, attnMask, window, alibi } = options;
  let lens = null;
  let perRow = false;
  if (validLens !== undefined && validLens !== null) {
    lens = flatNumbers(validLens);
    perRow = validLens.shape ? validLens.shape.length === 2 : Array.isArray(validLens[0]);
  }
  const corner = causal === true || causal === 'top-left' ? 'top-left' : causal === 'bottom-right' ? 'bottom-right' : null;
  let strides = null;
  if (attnMask) {
    // Right-aligned broadcast: mask axis m meets visible scores axis m + (rank - mask rank).
    const full = [B, H, Tq, Tk];
    const visibleAxes = AXES_OF_RANK[rank];
    strides = [0, 0, 0, 0];
    let stride = 1;
    for (let m = attnMask.shape.length - 1; m >= 0; m--) {
      const t = visibleAxes.length - attnMask.shape.length + m;
      if (t >= 0 && attnMask.shape[m] !== 1) {
        if (attnMask.shape[m] !== full[visibleAxes[t]]) throw new Error('reference: attnMask does not broadcast');
        strides[visibleAxes[t]] = stride;
      }
      stride *= attnMask.shape[m];
    }
  }
  const isFloat = attnMask && (attnMask.data instanceof Float32Array || attnMask.data instanceof Float64Array);
  return (b, h, i, j) => {
    if (lens && j >= (perRow ? lens[b * Tq + i] : lens[b])) return { visible: false, bias: 0 };
    if (corner === 'top-left' && j > i) return { visible: false, bias: 0 };
    if (corner === 'bottom-right' && j > i + Tk - Tq) return { visible: false, bias: 0 };
    // The window and ALiBi are measured from the bottom-right diagonal j = i + Tk - Tq.
    if (window && window[0] >= 0 && j < i + Tk - Tq - window[0]) return { visible: false, bias: 0 };
    if (window && window[1] >= 0 && j > i + Tk - Tq + window[1]) return { visible: false, bias: 0 };
    const slope = alibi ? alibiBias(alibi[h], i, j, Tq, Tk) : 0;
    if (!attnMask) return { visible: true, bias: slope };
    const m = attnMask.data[b * strides[0] + h * strides[1] + i * strides[2] + j * strides[3]];
    if (!isFloat) return { visible: m !== 0 && m !== false, bias: slope };
    return m === -Infinity ? { visible: false, bias: 0 } : { visible: true, bias: m + slope };
  };
}

/**
 * x (..., T, d) as { data, shape } -> Float64Array: pair (a, b) of row t turned by
 * (offset + t) base^(-2c/d), pairs (c, c + d/2) or, interleaved, (2c, 2c + 1). sign -1 turns back
 * (the backward).
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

/** p = softmax(z) over one row, max subtracted; returns the row's log-sum-exp (-Infinity: p = 0). */
function softmaxRow(z, p) {
  let max = -Infinity;
  for (const x of z) max = Math.max(max, x);
  if (max === -Infinity) {
    p.fill(0);
    return -Infinity;
  }
  let sum = 0;
  for (let j = 0; j < z.length; j++) sum += p[j] = Math.exp(z[j] - max);
  for (let j = 0; j < z.length; j++) p[j] /= sum;
  return max + Math.log(sum);
}

/** x's shape (rank 1..4) -> [B, H, Tq, Tk] (missing axes 1). */
function scoresDims(shape) {
  const full = [1, 1, 1, 1];
  AXES_OF_RANK[shape.length].forEach((a, r) => (full[a] = shape[r]));
  return full;
}

/**
 * The largest magnitude behind a score that carries weight (P > 1e-30; lighter keys change nothing
 * a float32 result can show): float32 rounds each score by up to eps times it, which moves the
 * weights by about that much relative, and every result downstream with them.
 */
function significantZ(Z, p, zAbs) {
  for (let j = 0; j < p.length; j++) if (p[j] > 1e-30) Z = Math.max(Z, zAbs[j]);
  return Z;
}

/**
 * Masked softmax of x (rank 1..4): { y, yAbs, Z } (y is its own abs companion: weights are >= 0;
 * Z as in significantZ).
 */
export function maskedSoftmaxReference(x, options = {}) {
  const [B, H, Tq, Tk] = scoresDims(x.shape);
  const mask = maskOf(options, [B, H, Tq, Tk], x.shape.length);
  const y = new Float64Array(x.data.length);
  const z = new Float64Array(Tk);
  const zAbs = new Float64Array(Tk);
  const p = new Float64Array(Tk);
  let Z = 0;
  for (let row = 0; row < B * H * Tq; row++) {
    const [b, h, i] = [Math.floor(row / (H * Tq)), Math.floor(row / Tq) % H, row % Tq];
    for (let j = 0; j < Tk; j++) {
      const { visible, bias } = mask(b, h, i, j);
      const xj = x.data[row * Tk + j];
      z[j] = visible ? xj + bias : (options.maskFill ?? -Infinity);
      // x itself is exact; only adding a float mask rounds (by eps of the sum's terms).
      zAbs[j] = visible && bias !== 0 ? Math.abs(xj) + Math.abs(bias) : 0;
    }
    softmaxRow(z, p);
    y.set(p, row * Tk);
    Z = significantZ(Z, p, zAbs);
  }
  return { y, yAbs: y, Z };
}

/** dx = y (dy - sum_j y dy) per row, 0 at masked keys: { dx, dxAbs }. */
export function maskedSoftmaxBackwardReference(y, dy, options = {}) {
  const [B, H, Tq, Tk] = scoresDims(y.shape);
  const mask = maskOf(options, [B, H, Tq, Tk], y.shape.length);
  const dx = new Float64Array(y.data.length);
  const dxAbs = new Float64Array(y.data.length);
  for (let row = 0; row < B * H * Tq; row++) {
    const [b, h, i] = [Math.floor(row / (H * Tq)), Math.floor(row / Tq) % H, row % Tq];
    const base = row * Tk;
    let dot = 0;
    let dotAbs = 0;
    for (let j = 0; j < Tk; j++) {
      dot += y.data[base + j] * dy.data[base + j];
      dotAbs += Math.abs(y.data[base + j] * dy.data[base + j]);
    }
    for (let j = 0; j < Tk; j++) {
      if (!mask(b, h, i, j).visible) continue;
      dx[base + j] = y.data[base + j] * (dy.data[base + j] - dot);
      dxAbs[base + j] = Math.abs(y.data[base + j]) * (Math.abs(dy.data[base + j]) + dotAbs);
    }
  }
  return { dx, dxAbs };
}

/**
 * The scoring functions a(q, k) of docs/semantics.md, each with its gradient: score(...) -> [a, the
 * sum of its terms' magnitudes], backward(..., g, gAbs) adds g * da/d(q, k, params) into the
 * gradients. q and k come as flat data, its magnitudes (qa, ka) and the row's offset.
 */
function scoringOf(name, params, dq, dk) {
  const dot = (x, xa, xo, y, ya, yo, n) => {
    let s = 0;
    let a = 0;
    for (let t = 0; t < n; t++) {
      s += x[xo + t] * y[yo + t];
      a += xa[xo + t] * ya[yo + t];
    }
    return [s, a];
  };
  if (name === 'dot' || name === 'scaled-dot') {
    return {
      score: (q, qa, qo, k, ka, ko) => dot(q, qa, qo, k, ka, ko, dq),
      backward: (q, qa, qo, k, ka, ko, g, gAbs, grads) => {
        for (let t = 0; t < dq; t++) {
          grads.dq.add(qo + t, g * k[ko + t], gAbs * ka[ko + t]);
          grads.dk.add(ko + t, g * q[qo + t], gAbs * qa[qo + t]);
        }
      },
    };
  }
  if (name === 'general') {
    // a = q^T W k, W (dq, dk)
    const W = params.w.data;
    return {
      score: (q, qa, qo, k, ka, ko) => {
        let s = 0;
        let a = 0;
        for (let r = 0; r < dq; r++)
          for (let c = 0; c < dk; c++) {
            s += q[qo + r] * W[r * dk + c] * k[ko + c];
            a += qa[qo + r] * Math.abs(W[r * dk + c]) * ka[ko + c];
          }
        return [s, a];
      },
      backward: (q, qa, qo, k, ka, ko, g, gAbs, grads) => {
        for (let r = 0; r < dq; r++)
          for (let c = 0; c < dk; c++) {
            const w = W[r * dk + c];
            grads.dq.add(qo + r, g * w * k[ko + c], gAbs * Math.abs(w) * ka[ko + c]);
            grads.dk.add(ko + c, g * w * q[qo + r], gAbs * Math.abs(w) * qa[qo + r]);
            grads.dw.add(r * dk + c, g * q[qo + r] * k[ko + c], gAbs * qa[qo + r] * ka[ko + c]);
          }
      },
    };
  }
  if (name === 'concat') {
    // a = w[:dq] . q + w[dq:] . k
    const w = params.w.data;
    const wAbs = w.map(Math.abs);
    return {
      score: (q, qa, qo, k, ka, ko) => {
        const [sq, aq] = dot(w, wAbs, 0, q, qa, qo, dq);
        const [sk, ak] = dot(w, wAbs, dq, k, ka, ko, dk);
        return [sq + sk, aq + ak];
      },
      backward: (q, qa, qo, k, ka, ko, g, gAbs, grads) => {
        for (let t = 0; t < dq; t++) {
          grads.dq.add(qo + t, g * w[t], gAbs * Math.abs(w[t]));
          grads.dw.add(t, g * q[qo + t], gAbs * qa[qo + t]);
        }
        for (let t = 0; t < dk; t++) {
          grads.dk.add(ko + t, g * w[dq + t], gAbs * Math.abs(w[dq + t]));
          grads.dw.add(dq + t, g * k[ko + t], gAbs * ka[ko + t]);
        }
      },
    };
  }
  if (name === 'additive') {
    // a = w_v . tanh(q Wq + k Wk), Wq (dq, h), Wk (dk, h), w_v (h)
    const [Wq, Wk, wv] = [params.wq.data, params.wk.data, params.wv.data];
    const h = params.wv.data.length;
    const hidden = (q, qa, qo, k, ka, ko) => {
      const z = new Float64Array(h);
      const zAbs = new Float64Array(h);
      for (let c = 0; c < h; c++) {
        for (let r = 0; r < dq; r++) {
          z[c] += q[qo + r] * Wq[r * h + c];
          zAbs[c] += qa[qo + r] * Math.abs(Wq[r * h + c]);
        }
        for (let r = 0; r < dk; r++) {
          z[c] += k[ko + r] * Wk[r * h + c];
          zAbs[c] += ka[ko + r] * Math.abs(Wk[r * h + c]);
        }
      }
      return [z, zAbs];
    };
    return {
      score: (q, qa, qo, k, ka, ko) => {
        const [z, zAbs] = hidden(q, qa, qo, k, ka, ko);
        let s = 0;
        let a = 0;
        for (let c = 0; c < h; c++) {
          s += wv[c] * Math.tanh(z[c]);
          // tanh is 1-Lipschitz: rounding of z (relative to zAbs) moves it by at most that much.
          a += Math.abs(wv[c]) * (Math.abs(Math.tanh(z[c])) + zAbs[c]);
        }
        return [s, a];
      },
      backward: (q, qa, qo, k, ka, ko, g, gAbs, grads) => {
        const [z] = hidden(q, qa, qo, k, ka, ko);
        for (let c = 0; c < h; c++) {
          const t = Math.tanh(z[c]);
          grads.dwv.add(c, g * t, gAbs * Math.abs(t));
          const dz = g * wv[c] * (1 - t * t);
          const dzAbs = gAbs * Math.abs(wv[c]);
          for (let r = 0; r < dq; r++) {
            grads.dq.add(qo + r, dz * Wq[r * h + c], dzAbs * Math.abs(Wq[r * h + c]));
            grads.dwq.add(r * h + c, dz * q[qo + r], dzAbs * qa[qo + r]);
          }
          for (let r = 0; r < dk; r++) {
            grads.dk.add(ko + r, dz * Wk[r * h + c], dzAbs * Math.abs(Wk[r * h + c]));
            grads.dwk.add(r * h + c, dz * k[ko + r], dzAbs * ka[ko + r]);
          }
        }
      },
    };
  }
  throw new Error(`reference: unknown scoring ${name}`);
}

/** A float64 gradient with its abs companion: add(i, value, |value| bound). */
function gradient(n) {
  const value = new Float64Array(n);
  const abs = new Float64Array(n);
  return { value, abs, add: (i, x, a) => ((value[i] += x), (abs[i] += a)) };
}

/** Tensor shape in rank 2..4 -> [B, Hs, T, width] (Hs: H for q, Hkv for k and v). */
function attentionDims(shape) {
  const r = shape.length;
  return [r >= 3 ? shape[0] : 1, r === 4 ? shape[1] : 1, shape[r - 2], shape[r - 1]];
}

/** The magnitudes of a tensor's elements: its own `abs` when it has one (a computed input), else |data|. */
const magnitudes = (t) => (t.abs ? t.abs : Float64Array.from(t.data, Math.abs));

/**
 * Attention of q, k, v (rank 2..4) under options { scoring, params, scale, softcap, validLens,
 * causal, attnMask, maskFill } (no dropout). Returns Float64Arrays in the layouts (B, H, Tq, ...):
 * out, weights, lse, scores (scale * a), softcapped, masked and, when dOutput is given,
 * dq, dk, dv and the gradients of params (dw, dwq, dwk, dwv); each X with an XAbs companion.
 * A row with no visible key (and no maskFill) has zero weights, output and gradient, lse -Infinity.
 * Z: as in significantZ, the magnitude behind the scores (scoresAbs plus the float mask).
 * A tensor argument may carry `abs` (the magnitudes its own rounding error scales with).
 */
export function attentionReference(q, k, v, options = {}, dOutput = null) {
  const [B, H, Tq, dq] = attentionDims(q.shape);
  const [, Hkv, Tk, dk] = attentionDims(k.shape);
  const dv = v.shape[v.shape.length - 1];
  const scoring = options.scoring ?? 'scaled-dot';
  const params = options.params ?? {};
  const scale = options.scale ?? (scoring === 'scaled-dot' ? 1 / Math.sqrt(dq) : 1);
  const cap = options.softcap ?? 0;
  const fill = options.maskFill ?? -Infinity;
  const mask = maskOf(options, [B, H, Tq, Tk], q.shape.length);
  const score = scoringOf(scoring, params, dq, dk);
  const [qa, ka, va] = [magnitudes(q), magnitudes(k), magnitudes(v)];
  const dOa = dOutput ? magnitudes(dOutput) : null;
  const rows = B * H * Tq;
  const r = {
    out: new Float64Array(rows * dv),
    outAbs: new Float64Array(rows * dv),
    weights: new Float64Array(rows * Tk),
    lse: new Float64Array(rows),
    scores: new Float64Array(rows * Tk),
    scoresAbs: new Float64Array(rows * Tk),
    softcapped: new Float64Array(rows * Tk),
    masked: new Float64Array(rows * Tk),
  };
  const grads = { dq: gradient(q.data.length), dk: gradient(k.data.length), dv: gradient(v.data.length) };
  for (const name of Object.keys(params)) grads[`d${name}`] = gradient(params[name].data.length);
  const z = new Float64Array(Tk);
  const zAbs = new Float64Array(Tk);
  const p = new Float64Array(Tk);
  const visible = new Uint8Array(Tk);
  r.Z = 0;
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++) {
      const hk = Math.floor(h / (H / Hkv)); // grouped-query: H / Hkv query heads share a kv head
      for (let i = 0; i < Tq; i++) {
        const row = (b * H + h) * Tq + i;
        const qo = row * dq;
        // pass 1: scores, softcap, mask
        for (let j = 0; j < Tk; j++) {
          const ko = ((b * Hkv + hk) * Tk + j) * dk;
          const [a, aAbs] = score.score(q.data, qa, qo, k.data, ka, ko);
          const s = scale * a;
          const sc = cap > 0 ? cap * Math.tanh(s / cap) : s;
          const m = mask(b, h, i, j);
          visible[j] = m.visible ? 1 : 0;
          z[j] = m.visible ? sc + m.bias : fill;
          zAbs[j] = m.visible ? scale * aAbs + Math.abs(m.bias) : Math.abs(fill);
          r.scores[row * Tk + j] = s;
          r.scoresAbs[row * Tk + j] = scale * aAbs;
          r.softcapped[row * Tk + j] = sc;
          r.masked[row * Tk + j] = z[j];
        }
        // pass 2: softmax; pass 3: weighted values
        r.lse[row] = softmaxRow(z, p);
        r.weights.set(p, row * Tk);
        r.Z = significantZ(r.Z, p, zAbs);
        for (let j = 0; j < Tk; j++) {
          const vo = ((b * Hkv + hk) * Tk + j) * dv;
          for (let t = 0; t < dv; t++) {
            r.out[row * dv + t] += p[j] * v.data[vo + t];
            r.outAbs[row * dv + t] += p[j] * va[vo + t];
          }
        }
        if (!dOutput) continue;
        // backward: dP_j = dO . v_j, D = sum_j P_j dP_j, dS_j = P_j (dP_j - D) where visible
        // (a masked or filled score is a constant), times the softcap derivative, times scale.
        const dO = dOutput.data.subarray(row * dv, (row + 1) * dv);
        const dOAbs = dOa.subarray(row * dv, (row + 1) * dv);
        const dP = new Float64Array(Tk);
        const dPAbs = new Float64Array(Tk);
        let D = 0;
        let DAbs = 0;
        for (let j = 0; j < Tk; j++) {
          const vo = ((b * Hkv + hk) * Tk + j) * dv;
          for (let t = 0; t < dv; t++) {
            dP[j] += dO[t] * v.data[vo + t];
            dPAbs[j] += dOAbs[t] * va[vo + t];
            grads.dv.add(vo + t, p[j] * dO[t], p[j] * dOAbs[t]);
          }
          D += p[j] * dP[j];
          DAbs += p[j] * dPAbs[j];
        }
        for (let j = 0; j < Tk; j++) {
          if (!visible[j] || p[j] === 0) continue;
          let dS = p[j] * (dP[j] - D);
          if (cap > 0) dS *= 1 - Math.tanh(r.scores[row * Tk + j] / cap) ** 2;
          const dSAbs = p[j] * (dPAbs[j] + DAbs);
          const ko = ((b * Hkv + hk) * Tk + j) * dk;
          score.backward(q.data, qa, qo, k.data, ka, ko, scale * dS, scale * dSAbs, grads);
        }
      }
    }
  for (const [name, g] of Object.entries(grads)) {
    r[name] = g.value;
    r[`${name}Abs`] = g.abs;
  }
  return r;
}

/** The rank-4 scaled dot-product case: { out, lse, dq, dk, dv } (older suites' interface). */
export function sdpaReference(q, k, v, options = {}, dOutput = null) {
  const r = attentionReference(q, k, v, { ...options, scoring: 'scaled-dot' }, dOutput);
  return { out: r.out, lse: r.lse, dq: r.dq, dk: r.dk, dv: r.dv };
}

/** y (B, heads, T, width) = head split of x W: x (B, T, dIn), W (dIn, heads * width). */
function projectToHeads(x, W, B, T, dIn, heads, width) {
  const y = new Float32Array(B * heads * T * width); // the core stores projections in float32
  const yAbs = new Float64Array(y.length);
  for (let b = 0; b < B; b++)
    for (let hd = 0; hd < heads; hd++)
      for (let t = 0; t < T; t++)
        for (let c = 0; c < width; c++) {
          let s = 0;
          let a = 0;
          for (let r = 0; r < dIn; r++) {
            const term = x[(b * T + t) * dIn + r] * W[r * heads * width + hd * width + c];
            s += term;
            a += Math.abs(term);
          }
          y[((b * heads + hd) * T + t) * width + c] = s;
          yAbs[((b * heads + hd) * T + t) * width + c] = a;
        }
  return { data: y, abs: yAbs, shape: [B, heads, T, width] };
}

/**
 * A layer (selfAttention: heads = kvHeads = 1, no wo; multiHeadAttention: wo (H dv, dOut)) on x
 * (B, T, dIn) with weights { wq, wk, wv, wo? } (Float32Arrays), options { scale, causal,
 * validLens }: { out, outAbs, Z (the attention's), and with dOutput (B, T, outWidth): dx, dwq,
 * dwk, dwv, dwo and their Abs companions }.
 * Projections are rounded to float32 between the stages, as the core stores them.
 */
export function layerReference({ B, T, dIn, dQ, dV, heads, kvHeads, dOut }, weights, x, options, dOutput = null) {
  const q = projectToHeads(x, weights.wq, B, T, dIn, heads, dQ);
  const k = projectToHeads(x, weights.wk, B, T, dIn, kvHeads, dQ);
  const v = projectToHeads(x, weights.wv, B, T, dIn, kvHeads, dV);
  const dout = dOutput;
  const F = heads * dV;
  const width = dOut > 0 ? dOut : F;
  // concat (B, T, H dv) of the heads (B, H, T, dv): feature f is head f / dv, column f % dv.
  const at = (b, t, f) => ((b * heads + Math.floor(f / dV)) * T + t) * dV + (f % dV);
  // The head gradient (B, H, T, dv) from dout, computed first so the attention's backward can run.
  let dHeads = null;
  if (dout) {
    dHeads = { data: new Float32Array(B * heads * T * dV), abs: new Float64Array(B * heads * T * dV), shape: [B, heads, T, dV] };
    for (let b = 0; b < B; b++)
      for (let t = 0; t < T; t++)
        for (let f = 0; f < F; f++) {
          let s = 0;
          let a = 0;
          for (let o = 0; o < (dOut > 0 ? dOut : 1); o++) {
            const g = dOut > 0 ? dout.data[(b * T + t) * dOut + o] * weights.wo[f * dOut + o] : dout.data[(b * T + t) * F + f];
            s += g;
            a += Math.abs(g);
          }
          dHeads.data[at(b, t, f)] = s;
          dHeads.abs[at(b, t, f)] = a;
        }
  }
  const att = attentionReference(q, k, v, { scale: options.scale, causal: options.causal, validLens: options.validLens }, dHeads);
  const attOut = Float32Array.from(att.out);
  const r = { out: new Float64Array(B * T * width), outAbs: new Float64Array(B * T * width), Z: att.Z };
  for (let b = 0; b < B; b++)
    for (let t = 0; t < T; t++)
      for (let o = 0; o < width; o++) {
        const i = (b * T + t) * width + o;
        if (dOut === 0) {
          r.out[i] = attOut[at(b, t, o)];
          r.outAbs[i] = att.outAbs[at(b, t, o)];
          continue;
        }
        for (let f = 0; f < F; f++) {
          r.out[i] += attOut[at(b, t, f)] * weights.wo[f * dOut + o];
          r.outAbs[i] += att.outAbs[at(b, t, f)] * Math.abs(weights.wo[f * dOut + o]);
        }
      }
  if (!dout) return r;
  if (dOut > 0) {
    const dwo = gradient(F * dOut);
    for (let f = 0; f < F; f++)
      for (let o = 0; o < dOut; o++)
        for (let b = 0; b < B; b++)
          for (let t = 0; t < T; t++) {
            const g = dout.data[(b * T + t) * dOut + o];
            dwo.add(f * dOut + o, attOut[at(b, t, f)] * g, att.outAbs[at(b, t, f)] * Math.abs(g));
          }
    r.dwo = dwo.value;
    r.dwoAbs = dwo.abs;
  }
  // The input projections' gradients: dW = x^T dy, dx += dy W^T, dy the attention's dq, dk, dv
  // (stored in float32 by the core).
  const dx = gradient(B * T * dIn);
  const backProject = (name, dy, dyAbs, hs, width) => {
    const W = weights[name];
    const dW = gradient(W.length);
    for (let b = 0; b < B; b++)
      for (let hd = 0; hd < hs; hd++)
        for (let t = 0; t < T; t++)
          for (let c = 0; c < width; c++) {
            const g = Math.fround(dy[((b * hs + hd) * T + t) * width + c]);
            const gAbs = dyAbs[((b * hs + hd) * T + t) * width + c];
            for (let rr = 0; rr < dIn; rr++) {
              const wi = rr * hs * width + hd * width + c;
              const xi = (b * T + t) * dIn + rr;
              dW.add(wi, x[xi] * g, Math.abs(x[xi]) * gAbs);
              dx.add(xi, W[wi] * g, Math.abs(W[wi]) * gAbs);
            }
          }
    r[`d${name}`] = dW.value;
    r[`d${name}Abs`] = dW.abs;
  };
  backProject('wq', att.dq, att.dqAbs, heads, dQ);
  backProject('wk', att.dk, att.dkAbs, kvHeads, dQ);
  backProject('wv', att.dv, att.dvAbs, kvHeads, dV);
  r.dx = dx.value;
  r.dxAbs = dx.abs;
  return r;
}
