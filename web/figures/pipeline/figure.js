// The drawing half of the pipeline figure: which stages a figure shows (stageFilter,
// wantsBackward) and renderPipeline(state, result, options, views), the DOM of a computed state.
// No compute here: pipeline.js computes (and <attn-figure> loads the backward pass only when it
// shows it), so a forward-only figure never loads the backward's code. Nor the heatmap and links
// views (gallery.js, with the heatmap and links figures): the caller passes them, so a matrix-view
// <attn-figure> never loads them.
import { h } from '../dom.js';
import { allStages } from '../../model/stages/registry.js';
import { registerCoreStages } from '../../model/stages/index.js';
import { stageBands, stageCard } from './render.js';

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
 * options { stages, backward, editable, captions } as in the spec, views { galleryView } (from
 * gallery.js): needed only for the heatmap and links views. -> HTMLDivElement.
 */
export function renderPipeline(state, result, options = {}, { galleryView } = {}) {
  ensureStages();
  const ctx = { state, result, head: state.head };
  if (state.view !== 'matrix' && !galleryView) throw new TypeError(`renderPipeline: the ${state.view} view needs views.galleryView (figures/pipeline/gallery.js)`);
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
