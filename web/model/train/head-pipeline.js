// One head of a trained transformer as an explorer example: the pipeline (Q, K, V, scores, mask,
// weights, output) of layer `layer`, head `head` on one sequence, with the trained weights, and X
// after the layer's LayerNorm that Q, K, V come from:
//   X    the layer's input after its LayerNorm; the input is the embedding (tokens, plus learned
//        positions) for layer 0, else the residual stream after layer l - 1 (trace.residual[l - 1])
//   Q    X W^Q + b^Q: rows h dh .. (h + 1) dh - 1 of layers.{l}.qkv.weight (transposed) and .bias
//   K, V the rows of the kv head the head reads (torch's repeat_interleave: h / (H / Hkv))
// Positions 'rope' rotate Q and K (rotate_half, the model's base) as the model does; positions
// 'alibi' give the example the head's slope of the model's (Press et al.'s slopes for H heads), so
// its masked scores carry the same bias -slope |i - j| as the model's.
import { alibiSlopes } from '../../src/boundary/alibi-slopes.js';

const NORM_EPS = 1e-5; // the core's LayerNorm eps (torch's default)

/** The (T, d) rows of sequence b of a (B, T, d) tensor, as number[][] . */
const rowsOf = (x, b, T, d) => Array.from({ length: T }, (_, t) => Array.from(x.data.subarray((b * T + t) * d, (b * T + t + 1) * d)));

/** LayerNorm of each row (biased variance, as torch), then weight and bias. */
function layerNorm(rows, weight, bias) {
  return rows.map((row) => {
    const mean = row.reduce((a, b) => a + b, 0) / row.length;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / row.length;
    const scale = 1 / Math.sqrt(variance + NORM_EPS);
    return row.map((v, c) => (v - mean) * scale * weight.data[c] + bias.data[c]);
  });
}

/** Rows first .. first + n - 1 of a (R, d) weight with its bias -> (d + 1, n): W^T over the bias. */
function projection(weight, bias, first, n) {
  const d = weight.shape[1];
  const out = Array.from({ length: d + 1 }, () => new Array(n));
  for (let j = 0; j < n; j++) {
    for (let c = 0; c < d; c++) out[c][j] = weight.data[(first + j) * d + c];
    out[d][j] = bias.data[first + j];
  }
  return out;
}

/** rows (T, n) times W (n, m) + bias (m) in float64. */
const project = (rows, w) => rows.map((row) => w[0].map((_, j) => row.reduce((sum, v, c) => sum + v * w[c][j], 0)));

/** rotate_half RoPE of rows (T, dh) at positions 0 .. T - 1: pairs (c, c + dh/2), angle t base^(-2c/dh). */
function rotate(rows, base) {
  const half = rows[0].length / 2;
  return rows.map((row, t) =>
    row.map((v, c) => {
      const i = c % half;
      const angle = t * base ** ((-2 * i) / (2 * half));
      return c < half ? v * Math.cos(angle) - row[c + half] * Math.sin(angle) : v * Math.cos(angle) + row[c - half] * Math.sin(angle);
    }),
  );
}

/** The most tokens an explorer example holds: causal attention's first rows are exact on their own. */
export const PIPELINE_TOKENS = 16;

/**
 * -> { spec, x, shown } for head `head` of layer `layer` on sequence b of `tokens` (B, T), from the
 * model's parameters() and forward(tokens, { trace: true }).trace: spec is a pipeline spec with Q,
 * K, V given (the explorer's example is at most 16 tokens and 12 wide, so X (T, d) itself is not
 * an example: Q = X W^Q + b^Q and the others are computed here in float64 from X after the
 * LayerNorm, which comes back as x (shown, d) for its own figure). Only the first `shown` <= 16
 * tokens are shown: under the causal mask query t sees keys 0 .. t only, so their weights are those
 * of the whole sequence exactly.
 */
export function headPipelineSpec({ parameters, config, tokens, trace, layer, head, b = 0, labels }) {
  checkIndex('layer', layer, config.layers);
  checkIndex('head', head, config.heads);
  const sequence = sequenceOf(tokens, b, labels);
  return headSpec(parameters, config, layerInput(parameters, config, sequence, trace, layer, b), layer, head, sequence.names);
}

/**
 * -> [layer][head] of headPipelineSpec's { spec, x, shown }, every head of the model at once (the
 * heads of a layer share one x): what a snapshot keeps, so that a head clicked later shows the
 * weights of then.
 */
export function headPipelineSpecs({ parameters, config, tokens, trace, b = 0, labels }) {
  const sequence = sequenceOf(tokens, b, labels);
  return Array.from({ length: config.layers }, (_, layer) => {
    const x = layerInput(parameters, config, sequence, trace, layer, b);
    return Array.from({ length: config.heads }, (_, head) => headSpec(parameters, config, x, layer, head, sequence.names));
  });
}

function checkIndex(name, value, count) {
  if (!Number.isInteger(value) || value < 0 || value >= count)
    throw new RangeError(`headPipelineSpec: ${name} must be an integer in [0, ${count}), got ${String(value)}`);
}

/** Sequence b of tokens (B, T): its first `shown` ids and their labels (the ids as text without). */
function sequenceOf(tokens, b, labels) {
  const T = tokens.shape[1];
  const shown = Math.min(T, PIPELINE_TOKENS);
  const ids = tokens.data.subarray(b * T, b * T + shown);
  return { T, shown, ids, names: (labels ?? Array.from(tokens.data.subarray(b * T, (b + 1) * T), String)).slice(0, shown) };
}

/** X (shown, d): layer `layer`'s input on the sequence after the layer's LayerNorm. */
function layerInput(parameters, config, { T, shown, ids }, trace, layer, b) {
  const d = config.dModel;
  let input;
  if (layer === 0) {
    const tok = parameters['tok.weight'];
    const pos = parameters['pos.weight'];
    input = Array.from(ids, (id, t) => Array.from({ length: d }, (_, c) => tok.data[id * d + c] + (pos ? pos.data[t * d + c] : 0)));
  } else {
    input = rowsOf(trace.residual[layer - 1], b, T, d).slice(0, shown);
  }
  return layerNorm(input, parameters[`layers.${layer}.norm.weight`], parameters[`layers.${layer}.norm.bias`]);
}

/** The example of head `head` of layer `layer` from its layer's X: Q, K, V (rotated under RoPE), ALiBi's slope, the window. */
function headSpec(parameters, config, x, layer, head, names) {
  const { dModel: d, heads: H, kvHeads: Hkv, positions } = config;
  const withOnes = x.map((row) => [...row, 1]); // the last row of each projection is its bias
  const dh = d / H;
  const kv = Math.floor(head / (H / Hkv));
  const [weight, bias] = [parameters[`layers.${layer}.qkv.weight`], parameters[`layers.${layer}.qkv.bias`]];
  let q = project(withOnes, projection(weight, bias, head * dh, dh));
  let k = project(withOnes, projection(weight, bias, d + kv * dh, dh));
  const v = project(withOnes, projection(weight, bias, d + Hkv * dh + kv * dh, dh));
  if (positions === 'rope') [q, k] = [rotate(q, config.rope.base), rotate(k, config.rope.base)];
  return {
    spec: {
      data: { q: [q], k: [k], v: [v], tokens: names, keyTokens: names },
      scoring: 'scaled-dot',
      causal: true,
      ...(positions === 'alibi' ? { alibi: [alibiSlopes(H)[head]] } : {}),
      ...(config.window ? { window: [config.window - 1, 0] } : {}),
    },
    x,
    shown: names.length,
  };
}
