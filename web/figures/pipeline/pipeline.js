// pipeline(spec) -> HTMLDivElement: the explorer's pipeline, or a chosen subset of its stages, for
// a preset or given data, as plain DOM (no formulas: those need KaTeX, which stays in the explorer).
// Computed through the public API (spec.attn, from loadAttention()) by the explorer's own
// compute() and stage definitions (web/site/compute, web/site/stages), so every matrix carries the
// explorer's contract: svg[data-stage][data-head][data-run], cells [data-row][data-col][data-value].
//
// spec: pipelineState's fields (pipeline-state.js: preset, data, scoring, compare, causal,
//   validLens, maskFill, heads, head, view) and
//   attn       the module from loadAttention() (required)
//   stages     stage ids to show, in pipeline order whatever the order given (default: every
//              forward stage the example has); ignored by the heatmap and links views
//   backward   also show the backward pass (loss, dO, dP, dS, dQ, dK, dV, dW)
//   editable   mark editable cells (x, w*, target, params, given q/k/v); the caller handles edits
//   captions   one sentence under each matrix, as in the explorer
import { compute } from '../../model/compute/index.js';
import { h } from '../dom.js';
import { allStages } from '../../model/stages/registry.js';
import { registerCoreStages } from '../../model/stages/index.js';
import { galleryView } from './gallery.js';
import { stageBands, stageCard } from './render.js';
import { pipelineState } from './state.js';

// The bands the backward pass adds (web/model/stages/backward.js); every other band is forward.
const BACKWARD_GROUPS = new Set(['loss', 'gradients', 'weight-gradients']);

/** Registers the explorer's stages once per page (the explorer itself may have done it). */
export function ensureStages() {
  if (allStages().length === 0) registerCoreStages();
}

/** The ids of every registered stage. */
export function stageIds() {
  ensureStages();
  return allStages().map((s) => s.id);
}

/** A predicate on stages: the given ids (checked against the registry), or forward (+ backward). */
export function stageFilter({ stages, backward = false } = {}) {
  const known = stageIds();
  if (stages === undefined || stages === null) return (stage) => backward || !BACKWARD_GROUPS.has(stage.group);
  if (!Array.isArray(stages)) throw new TypeError(`stages must be an array of stage ids, got ${JSON.stringify(stages)}`);
  for (const id of stages) {
    if (!known.includes(id)) throw new TypeError(`stages: unknown stage ${JSON.stringify(id)} (known: ${known.join(', ')})`);
  }
  const chosen = new Set(stages);
  return (stage) => chosen.has(stage.id) || (backward && BACKWARD_GROUPS.has(stage.group));
}

function matrixView(ctx, options) {
  const bands = stageBands(ctx, { show: stageFilter(options), card: (stage) => stageCard(stage, ctx, { editable: options.editable, captions: Boolean(options.captions) }) });
  if (bands.length === 0) {
    throw new RangeError(`stages: none of ${JSON.stringify(options.stages)} exists for this example (a given-Q, K, V example has no x or projection weights; the backward stages need a computable backward pass)`);
  }
  return bands;
}

/**
 * The figure of a computed state: state (explorer state), result (compute(attn, state)),
 * options { stages, backward, editable, captions } as in the spec. -> HTMLDivElement.
 */
export function renderPipeline(state, result, options = {}) {
  ensureStages();
  const ctx = { state, result, head: state.head };
  const body = state.view === 'matrix' ? matrixView(ctx, options) : [galleryView(ctx, state.view)];
  return h('div', { class: 'attn-pipeline', dataset: { view: state.view, preset: state.preset } }, body);
}

/** Whether the figure shows a backward stage: only then is the backward pass computed. */
export function wantsBackward({ stages, backward = false } = {}) {
  if (backward) return true;
  if (!Array.isArray(stages)) return false;
  ensureStages();
  return stages.some((id) => BACKWARD_GROUPS.has(allStages().find((s) => s.id === id)?.group));
}

/** compute() for a figure: forward always, backward when the options show it. */
export function computeFigure(attn, state, options = {}) {
  return compute(attn, state, { backward: wantsBackward(options) });
}

/** -> HTMLDivElement: the figure spec asks for (see the top of this file). */
export function pipeline(spec = {}) {
  if (!spec.attn || typeof spec.attn.attention !== 'function') {
    throw new TypeError('pipeline: spec.attn must be the module from loadAttention()');
  }
  const state = pipelineState(spec);
  return renderPipeline(state, computeFigure(spec.attn, state, spec), spec);
}
