// pipeline(spec) -> HTMLDivElement: the explorer's pipeline, or a chosen subset of its stages, for
// a preset or given data, as plain DOM (no formulas: those need KaTeX, which stays in the explorer).
// Computed through the public API (spec.attn, from loadAttention()) by the explorer's own
// compute() and stage definitions (web/model/compute, web/model/stages), so every matrix carries the
// explorer's contract: svg[data-stage][data-head][data-run], cells [data-row][data-col][data-value].
//
// spec: pipelineState's fields (state.js: preset, data, scoring, compare, causal,
//   validLens, maskFill, heads, head, view) and
//   attn       the module from loadAttention() (required)
//   stages     stage ids to show, in pipeline order whatever the order given (default: every
//              forward stage the example has); ignored by the heatmap and links views
//   backward   also show the backward pass (loss, dO, dP, dS, dQ, dK, dV, dW)
//   editable   mark editable cells (x, w*, target, params, given q/k/v); the caller handles edits
//   captions   one sentence under each matrix, as in the explorer
import { compute } from '../../model/compute/index.js';
import { backwardPass } from '../../model/compute/backward.js';
import { registerBackwardStages } from '../../model/stages/backward.js';
import { renderPipeline, wantsBackward } from './figure.js';
import { galleryView } from './gallery.js';
import { pipelineState } from './state.js';
// Every preset, so that pipeline() and the entry's pipelineState() stay synchronous (an
// <attn-figure> loads only the preset it names).
import '../../model/presets/index.js';

export { stageIds } from './figure.js';

/** compute() for a figure: forward always, backward when the options show it. */
export function computeFigure(attn, state, options = {}) {
  return compute(attn, state, { backward: wantsBackward(options) ? backwardPass : null });
}
/** -> HTMLDivElement: the figure spec asks for (see the top of this file). */
export function pipeline(spec = {}) {
  if (!spec.attn || typeof spec.attn.attention !== 'function') {
    throw new TypeError('pipeline: spec.attn must be the module from loadAttention()');
  }
  const state = pipelineState(spec);
  return renderPipeline(state, computeFigure(spec.attn, state, spec), spec, { galleryView, registerBackwardStages });
}
