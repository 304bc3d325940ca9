// pipeline(spec) -> Promise<HTMLDivElement>: the explorer's pipeline, or a chosen subset of its
// stages, for a preset or given data, as plain DOM (no formulas: those need KaTeX, which stays in
// the explorer). Computed through the public API (spec.attn, from loadAttention()) by the
// explorer's own compute() and stage definitions (web/model/compute, web/model/stages), so every
// matrix carries the explorer's contract: svg[data-stage][data-head][data-run], cells
// [data-row][data-col][data-value]. Async because it loads only what the spec draws (load.js):
// its preset, the backward pass when it shows one, the heatmap and links views when it shows them.
//
// spec: pipelineState's fields (PipelineStateSpec in ../index.d.ts: preset, data, scoring, ...) and
//   attn       the module from loadAttention() (required)
//   stages     stage ids to show, in pipeline order whatever the order given (default: every
//              forward stage the example has); ignored by the heatmap and links views
//   backward   also show the backward pass (loss, dO, dP, dS, dQ, dK, dV, dW)
//   editable   mark editable cells (x, w*, target, params, given q/k/v); the caller handles edits
//   captions   one sentence under each matrix, as in the explorer
import { compute } from '../../model/compute/index.js';
import { renderPipeline } from './figure.js';
import { loadFigure } from './load.js';

/** -> Promise<HTMLDivElement>: the figure spec asks for (see the top of this file). */
export async function pipeline(spec = {}) {
  if (!spec?.attn || typeof spec.attn.attention !== 'function') {
    throw new TypeError('pipeline: spec.attn must be the module from loadAttention()');
  }
  const { state, backward, parts } = await loadFigure(spec);
  return renderPipeline(state, compute(spec.attn, state, { backward }), spec, parts);
}
