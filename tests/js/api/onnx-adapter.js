// Maps an ONNX backend test case (tests/conformance, see its README) onto attention-lab's
// public API, following the ONNX reference implementation's semantics:
//   - 3D inputs (B, T, H*d) with q_num_heads / kv_num_heads -> (B, H, T, d), Y back to (B, Tq, H*dv);
//   - past_key / past_value concatenated in front of K / V (present_key / present_value);
//   - attn_mask bool (1 = attend) or float (added), right-aligned broadcast, padded with masked
//     entries up to the total key length;
//   - is_causal: key j visible from query i when j <= i + offset, with offset 0 (no cache: 'top-left'),
//     past_len (with past_key: 'bottom-right' when Tk = past_len + Tq, else an explicit mask), or
//     nonpad_kv_seqlen[b] - Tq per batch (an explicit boolean mask built here);
//   - nonpad_kv_seqlen: keys j >= nonpad[b] masked, which is validLens = nonpad (B);
//   - qk_matmul_output_mode 0..3 read from trace.scores / trace.softcapped / trace.masked / weights.
// Everything the API cannot express in one option (two masks at once) is combined here into one
// attnMask of the full (B, H, Tq, Tk) broadcast shape.
import { decodeNumber, product } from '../support/numeric.js';

/** An ONNX input or output as { shape, dtype, data } with numbers decoded ("-inf" strings included). */
export function decodeValue(v) {
  const data =
    v.dtype === 'bool'
      ? Uint8Array.from(v.data, (x) => (x ? 1 : 0))
      : v.dtype === 'int64' || v.dtype === 'int32'
        ? v.data.map(Number)
        : Float32Array.from(v.data, decodeNumber);
  return { shape: [...v.dims], dtype: v.dtype, data };
}

/** Strides of a row-major shape. */
function strides(shape) {
  const s = new Array(shape.length).fill(1);
  for (let a = shape.length - 2; a >= 0; a--) s[a] = s[a + 1] * shape[a + 1];
  return s;
}

/** Generic axis permutation of a dense tensor: out axis a is input axis perm[a]. */
export function transpose(t, perm) {
  const inStrides = strides(t.shape);
  const outShape = perm.map((p) => t.shape[p]);
  const out = new t.data.constructor(t.data.length);
  const n = out.length;
  const outStrides = strides(outShape);
  for (let flat = 0; flat < n; flat++) {
    let rest = flat;
    let src = 0;
    for (let a = 0; a < outShape.length; a++) {
      const idx = Math.floor(rest / outStrides[a]);
      rest -= idx * outStrides[a];
      src += idx * inStrides[perm[a]];
    }
    out[flat] = t.data[src];
  }
  return { shape: outShape, data: out };
}

/** (B, T, H*d) -> (B, H, T, d), ONNX's reshape + transpose of 3D inputs. */
export function splitHeads(t, heads) {
  const [B, T, width] = t.shape;
  if (width % heads !== 0) throw new Error(`width ${width} is not a multiple of ${heads} heads`);
  return transpose({ shape: [B, T, heads, width / heads], data: t.data }, [0, 2, 1, 3]);
}

/** (B, H, T, d) -> (B, T, H*d). */
export function mergeHeads(t) {
  const [B, H, T, d] = t.shape;
  const u = transpose(t, [0, 2, 1, 3]);
  return { shape: [B, T, H * d], data: u.data };
}

/** Concatenates two (B, H, T, d) tensors along T: past in front. */
export function concatSequence(past, cur) {
  const [B, H, P, d] = past.shape;
  const T = cur.shape[2];
  const out = new Float32Array(B * H * (P + T) * d);
  for (let bh = 0; bh < B * H; bh++) {
    out.set(past.data.subarray(bh * P * d, (bh + 1) * P * d), bh * (P + T) * d);
    out.set(cur.data.subarray(bh * T * d, (bh + 1) * T * d), bh * (P + T) * d + P * d);
  }
  return { shape: [B, H, P + T, d], data: out };
}

/** Pads the last (key) axis of a mask to `total` keys with masked entries (false / -inf). */
export function padMaskKeys(mask, total) {
  const width = mask.shape[mask.shape.length - 1];
  if (width >= total) return mask;
  const rows = mask.data.length / width;
  const out = new mask.data.constructor(rows * total);
  if (mask.data instanceof Float32Array) out.fill(-Infinity);
  for (let r = 0; r < rows; r++) out.set(mask.data.subarray(r * width, (r + 1) * width), r * total);
  return { ...mask, shape: [...mask.shape.slice(0, -1), total], data: out };
}

/** Right-aligned (numpy) broadcast of a mask to a rank-4 shape, materialised. */
export function broadcastTo(mask, shape) {
  const rankGap = shape.length - mask.shape.length;
  const full = [...new Array(rankGap).fill(1), ...mask.shape];
  const inStrides = strides(full).map((s, a) => (full[a] === 1 ? 0 : s));
  const outStrides = strides(shape);
  const out = new mask.data.constructor(product(shape));
  for (let flat = 0; flat < out.length; flat++) {
    let rest = flat;
    let src = 0;
    for (let a = 0; a < shape.length; a++) {
      const idx = Math.floor(rest / outStrides[a]);
      rest -= idx * outStrides[a];
      src += idx * inStrides[a];
    }
    out[flat] = mask.data[src];
  }
  return { ...mask, shape: [...shape], data: out };
}

/**
 * Intersects a user mask (bool or float, any broadcastable shape) with a boolean visibility
 * (B, 1, Tq, Tk) given as a function visible(b, i, j), over the full (B, H, Tq, Tk).
 */
function intersectMask(userMask, shape, visible) {
  const [B, H, Tq, Tk] = shape;
  const base = userMask ? broadcastTo(userMask, shape) : { dtype: 'bool', shape: [...shape], data: new Uint8Array(B * H * Tq * Tk).fill(1) };
  const isFloat = base.data instanceof Float32Array;
  let flat = 0;
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let i = 0; i < Tq; i++) for (let j = 0; j < Tk; j++, flat++) if (!visible(b, i, j)) base.data[flat] = isFloat ? -Infinity : 0;
  return base;
}

/** The public-API attnMask form of a decoded ONNX mask. */
function apiMask(mask) {
  return { shape: mask.shape, data: mask.data };
}

/**
 * Runs one ONNX Attention case through attn.scaledDotProductAttention.
 * Returns { actual: { [outputName]: { shape, data } }, options } in the case's layouts; actual also
 * holds 'Y (with trace)', the output of the call that returned the weights and the trace.
 */
export function runOnnxAttention(attn, testCase) {
  const attrs = testCase.attributes ?? {};
  const inputs = Object.fromEntries(testCase.inputs.map((v) => [v.name, decodeValue(v)]));
  const rank3 = inputs.Q.shape.length === 3;
  let q = inputs.Q;
  let k = inputs.K;
  let v = inputs.V;
  if (rank3) {
    q = splitHeads(q, attrs.q_num_heads);
    k = splitHeads(k, attrs.kv_num_heads);
    v = splitHeads(v, attrs.kv_num_heads);
  }
  const pastLen = inputs.past_key ? inputs.past_key.shape[2] : 0;
  if (inputs.past_key) k = concatSequence(inputs.past_key, k);
  if (inputs.past_value) v = concatSequence(inputs.past_value, v);

  const [B, H, Tq] = q.shape;
  const Tk = k.shape[2];
  const options = { returnWeights: true, trace: true };
  if (attrs.scale !== undefined) options.scale = attrs.scale;
  if (attrs.softcap !== undefined) options.softcap = attrs.softcap;

  let mask = inputs.attn_mask ? padMaskKeys(inputs.attn_mask, Tk) : null;
  const nonpad = inputs.nonpad_kv_seqlen ? inputs.nonpad_kv_seqlen.data : null;
  if (nonpad) options.validLens = Array.from(nonpad);
  if (attrs.is_causal) {
    if (nonpad && !inputs.past_key) {
      // External cache: a per-batch offset nonpad[b] - Tq, which no Causal value expresses.
      mask = intersectMask(mask, [B, H, Tq, Tk], (b, i, j) => j <= i + nonpad[b] - Tq);
    } else if (pastLen === 0) {
      options.causal = 'top-left'; // offset 0, also when Tk != Tq
    } else if (pastLen === Tk - Tq) {
      options.causal = 'bottom-right';
    } else {
      // Internal cache whose new keys outnumber the queries: offset past_len, not Tk - Tq.
      mask = intersectMask(mask, [B, H, Tq, Tk], (b, i, j) => j <= i + pastLen);
    }
  }
  if (mask) options.attnMask = apiMask(mask);

  // Twice: without weights or trace (the kernels may take their fused, memory-lean path) for Y, and
  // with them for qk_matmul_output; both outputs must match Y.
  const { returnWeights, trace: withTrace, ...plainOptions } = options;
  const plain = attn.scaledDotProductAttention(q, k, v, plainOptions);
  const result = attn.scaledDotProductAttention(q, k, v, options);
  const inInputLayout = (t) => (rank3 ? mergeHeads(t) : t);
  const actual = { Y: inInputLayout(plain.output), 'Y (with trace)': inInputLayout(result.output) };
  if (inputs.past_key || testCase.outputs.some((o) => o.name === 'present_key')) actual.present_key = k;
  if (inputs.past_value || testCase.outputs.some((o) => o.name === 'present_value')) actual.present_value = v;
  const mode = attrs.qk_matmul_output_mode ?? 0;
  const trace = result.trace;
  actual.qk_matmul_output = [
    trace.scores,
    attrs.softcap ? trace.softcapped : trace.scores, // ONNX: mode 1 without softcap is mode 0
    trace.masked,
    result.weights,
  ][mode];
  return { actual, options };
}

/** ONNX Softmax along `axis` through attn.maskedSoftmax (the last axis; others transposed there). */
export function runOnnxSoftmax(attn, testCase) {
  const x = decodeValue(testCase.inputs[0]);
  const rank = x.shape.length;
  let axis = testCase.attributes?.axis ?? -1; // opset 13 default: the last axis
  if (axis < 0) axis += rank;
  if (axis === rank - 1) return attn.maskedSoftmax({ shape: x.shape, data: x.data });
  const perm = [...Array(rank).keys()].filter((a) => a !== axis).concat(axis);
  const inverse = perm.map((_, a) => perm.indexOf(a));
  const y = attn.maskedSoftmax(transpose(x, perm));
  return transpose(y, inverse);
}
