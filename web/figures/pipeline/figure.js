// The drawing half of the pipeline figure: which stages a figure shows (stageFilter,
// wantsBackward) and renderPipeline(state, result, options, views), the DOM of a computed state.
// No compute here: pipeline.js computes (and <attn-figure> loads the backward pass only when it
// shows it), so a forward-only figure never loads the backward's code. Nor the heatmap and links
// views (gallery.js, with the heatmap and links figures): the caller passes them, so a matrix-view
// <attn-figure> never loads them.
import { h } from '../dom.js';
import { langOption } from '../../i18n/figure-text.js';
import { allStages, stageById, withStageLanguage } from '../../model/stages/registry.js';
import { BACKWARD_STAGE_IDS } from '../../model/stages/groups.js';
import { registerForwardStages } from '../../model/stages/forward.js';
import { stageBands, stageCard } from './render.js';

/** Whether the backward stages are registered (the explorer registers them; figures on demand). */
const backwardRegistered = () => stageById(BACKWARD_STAGE_IDS.values().next().value) !== null;

/**
 * Registers the explorer's forward stages once per page (the explorer itself may have registered
 * every stage), and the backward ones when given registerBackwardStages (model/stages/backward.js,
 * which a forward-only <attn-figure> never loads).
 */
export function ensureStages(registerBackwardStages) {
  if (allStages().length === 0) registerForwardStages();
  if (registerBackwardStages && !backwardRegistered()) registerBackwardStages();
}

/** The ids of every stage, forward then backward (registered or not), in pipeline order. */
export function stageIds() {
  ensureStages();
  const ids = allStages().map((s) => s.id);
  return [...ids, ...[...BACKWARD_STAGE_IDS].filter((id) => !ids.includes(id))];
}

/** A predicate on stages: the given ids (checked against the registry), or forward (+ backward). */
export function stageFilter({ stages, backward = false } = {}) {
  const known = stageIds();
  if (stages === undefined || stages === null) return (stage) => backward || !BACKWARD_STAGE_IDS.has(stage.id);
  if (!Array.isArray(stages)) throw new TypeError(`stages must be an array of stage ids, got ${JSON.stringify(stages)}`);
  for (const id of stages) {
    if (!known.includes(id)) throw new TypeError(`stages: unknown stage ${JSON.stringify(id)} (known: ${known.join(', ')})`);
  }
  const chosen = new Set(stages);
  return (stage) => chosen.has(stage.id) || (backward && BACKWARD_STAGE_IDS.has(stage.id));
}

function matrixView(ctx, options) {
  const bands = stageBands(ctx, {
    show: stageFilter(options),
    card: (stage) => stageCard(stage, ctx, { editable: options.editable, captions: Boolean(options.captions) }),
  });
  if (bands.length === 0) {
    throw new RangeError(
      `stages: none of ${JSON.stringify(options.stages)} exists for this example (a given-Q, K, V example has no x or projection weights; the backward stages need a computable backward pass)`,
    );
  }
  return bands;
}

/**
 * The figure of a computed state: state (explorer state), result (compute(attn, state)),
 * options { stages, backward, editable, captions, lang } as in the spec (lang: 'en', the default,
 * or 'zh-CN': the stages' words, captions and cell names; the root's lang attribute, which the
 * editing messages follow), and the code loaded on demand:
 * parts { galleryView } (gallery.js) for the heatmap and links views, { registerBackwardStages }
 * (model/stages/backward.js) for a figure that shows the backward pass. -> HTMLDivElement.
 */
export function renderPipeline(state, result, options = {}, { galleryView, registerBackwardStages } = {}) {
  ensureStages(registerBackwardStages);
  if (state.view === 'matrix' && wantsBackward(options) && !backwardRegistered()) {
    throw new TypeError('renderPipeline: the backward stages need parts.registerBackwardStages (model/stages/backward.js)');
  }
  const lang = langOption(options.lang, 'pipeline');
  const ctx = { state, result, head: state.head };
  if (state.view !== 'matrix' && !galleryView)
    throw new TypeError(`renderPipeline: the ${state.view} view needs parts.galleryView (figures/pipeline/gallery.js)`);
  const body = withStageLanguage(lang, () => (state.view === 'matrix' ? matrixView(ctx, options) : [galleryView(ctx, state.view)]));
  return h('div', { class: 'attn-pipeline', lang, dataset: { view: state.view, preset: state.preset } }, body);
}

/** Whether the figure shows a backward stage: only then is the backward pass computed. */
export function wantsBackward({ stages, backward = false } = {}) {
  if (backward) return true;
  return Array.isArray(stages) && stages.some((id) => BACKWARD_STAGE_IDS.has(id));
}
