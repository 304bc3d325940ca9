// com.microsoft GroupQueryAttention (onnxruntime's contrib op) as an ONNX model built in code
// (onnx-model.mjs): the second, independent reference of issue 12's forward and the peer of the
// bench's sliding-window and decode-step lines. Layouts are the op's own:
//   query (B, S, H d), key and value (B, S, Hkv d)       the S new rows, heads side by side
//   past_key, past_value (B, Hkv, P, d)                  the P cached rows (already rotated)
//   output (B, S, H d); present_key, present_value (B, Hkv, P + S, d)
// seqlens_k (B) int32 = P + S - 1 and total_sequence_length = P + S are initializers, so one model
// serves one (P, S). With do_rotary the op rotates the new q and k itself at positions P .. P + S - 1
// from the cos and sin caches (maxLength, d / 2) it is given (rotaryCaches below).
import { floatTensor, int32Tensor, node, onnxModel } from './onnx-model.mjs';

/**
 * cos and sin of position p times base^(-2i/d), i < d / 2, p < maxLength: the caches
 * GroupQueryAttention reads (computed in float64, stored as float32, as Hugging Face's Llama does).
 */
export function rotaryCaches({ d, maxLength, base = 10000 }) {
  const half = d / 2;
  const cos = new Float32Array(maxLength * half);
  const sin = new Float32Array(maxLength * half);
  for (let p = 0; p < maxLength; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * base ** ((-2 * i) / d);
      cos[p * half + i] = Math.cos(angle);
      sin[p * half + i] = Math.sin(angle);
    }
  }
  return { cos, sin };
}

/**
 * The op's node and its initializers, for a graph of its own or one with projections around it.
 * P: cached rows (0: no past inputs); window: local_window_size (-1: none); rotary: false, or
 * { interleaved, base } (the caches become initializers); scale, softcap: the op's attributes when
 * given; names of the query, key, value inputs
 * and of the output.
 */
export function groupQueryAttentionNode({ B = 1, H, Hkv, S, P = 0, d, window = -1, rotary = false, scale, softcap }, names = {}) {
  const { query = 'query', key = 'key', value = 'value', output = 'output' } = names;
  const total = P + S;
  const initializers = [int32Tensor('seqlens_k', [B], Array(B).fill(total - 1)), int32Tensor('total_sequence_length', [], [total])];
  if (rotary) {
    const { cos, sin } = rotaryCaches({ d, maxLength: total, base: rotary.base });
    initializers.push(floatTensor('cos_cache', [total, d / 2], cos), floatTensor('sin_cache', [total, d / 2], sin));
  }
  const attrs = {
    num_heads: H,
    kv_num_heads: Hkv,
    local_window_size: window,
    do_rotary: rotary ? 1 : 0,
    rotary_interleaved: rotary?.interleaved ? 1 : 0,
    ...(scale !== undefined ? { scale: { float: scale } } : {}),
    ...(softcap !== undefined ? { softcap: { float: softcap } } : {}),
  };
  const past = P > 0 ? ['past_key', 'past_value'] : ['', ''];
  const rotaryInputs = rotary ? ['cos_cache', 'sin_cache'] : [];
  const inputs = [query, key, value, ...past, 'seqlens_k', 'total_sequence_length', ...rotaryInputs];
  return { node: node('GroupQueryAttention', inputs, [output, 'present_key', 'present_value'], attrs, 'com.microsoft'), initializers };
}

/**
 * The op alone: inputs query, key, value (and past_key, past_value when P > 0), output; present:
 * whether present_key and present_value are graph outputs too (the bench leaves them out: one copy less).
 */
export function groupQueryAttentionModel(shape) {
  const { B = 1, H, Hkv, S, P = 0, d, present = false } = shape;
  const total = P + S;
  const inputs = [['query', [B, S, H * d]], ['key', [B, S, Hkv * d]], ['value', [B, S, Hkv * d]]];
  if (P > 0) inputs.push(['past_key', [B, Hkv, P, d]], ['past_value', [B, Hkv, P, d]]);
  const gqa = groupQueryAttentionNode(shape);
  return onnxModel({
    opsets: { '': 21, 'com.microsoft': 1 },
    inputs,
    outputs: [['output', [B, S, H * d]], ...(present ? ['present_key', 'present_value'].map((n) => [n, [B, Hkv, total, d]]) : [])],
    initializers: gqa.initializers,
    nodes: [gqa.node],
  });
}
