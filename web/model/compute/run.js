// One attention run: a scoring over one head's Q, K, V, every stage from the core.
//   raw      a(q_i, k_j) unscaled (q k^T for the dot products)        (B, Tq, Tk)
//   scaled   raw * scale / temperature
//   masked   scaled + bias: -Infinity where masked (d2l mode: -1e6)
//   weights  softmax of each masked row; output = weights V            (B, Tq, dv)
import { fromNested } from './tensors.js';

/** The scale the scoring uses when the state does not set one. */
export function defaultScale(scoring, d) {
  return scoring === 'scaled-dot' ? 1 / Math.sqrt(d) : 1;
}

/** The scoring's parameters as tensors, from state.params. */
export function scoringParams(state, scoring) {
  const p = state.params[scoring];
  if (!p) return undefined;
  return Object.fromEntries(Object.entries(p).map(([name, value]) => [name, fromNested(value)]));
}

/**
 * -> { scoring, scale, params, raw, scaled, masked, weights, output }.
 * head: { q, k, v } tensors (B, T, .); masks: maskOptions(state).
 */
/**
 * The API options of one scoring over queries of width d: { scale (the one applied),
 * options: { scoring, params, scale } } (scale left to the API's default when nothing changed it,
 * so the numbers are the API's defaults). The forward and the backward pass share them.
 */
export function scoringOptions(state, scoring, d) {
  const params = scoringParams(state, scoring);
  const scale = (state.scale ?? defaultScale(scoring, d)) / state.temperature;
  const scaleOption = state.scale === null && state.temperature === 1 ? undefined : scale;
  return { scale, options: { scoring, params, scale: scaleOption } };
}

export function attentionRun(attn, state, head, scoring, masks) {
  const d = head.q.shape[head.q.shape.length - 1];
  const { scale, options } = scoringOptions(state, scoring, d);
  const { params } = options;
  const rawScoring = scoring === 'scaled-dot' ? 'dot' : scoring;
  const raw = attn.attention(head.q, head.k, head.v, { scoring: rawScoring, params, scale: 1, trace: true }).trace.scores;
  const result = attn.attention(head.q, head.k, head.v, { ...options, ...masks, trace: true, returnWeights: true });
  return {
    scoring,
    scale,
    params,
    raw,
    scaled: result.trace.scores,
    masked: result.trace.masked,
    weights: result.weights,
    output: result.output,
  };
}
