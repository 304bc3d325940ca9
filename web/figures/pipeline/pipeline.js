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
import { allGroups, allStages, stagesOf } from '../../model/stages/registry.js';
import { sizeText } from '../../model/stages/common.js';
import { registerCoreStages } from '../../model/stages/index.js';
import { galleryView } from './gallery.js';
import { stageFigure } from './stage-figure.js';
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

/** The stage's symbol without KaTeX: its TeX when that is a letter with a superscript (W^Q, dW^K), else its title. */
function symbol(stage) {
  const parts = /^([A-Za-z]+)\^([A-Za-z])$/.exec(stage.tex ?? '');
  return parts ? [parts[1], h('sup', {}, parts[2])] : stage.title;
}

function stageCard(stage, ctx, { editable, captions }) {
  const instances = stage.instances(ctx);
  const canEdit = Boolean(editable && stage.editable?.(ctx));
  const caption = captions ? stage.caption?.(ctx) : null;
  return h('section', { class: `attn-card${canEdit ? ' is-editable' : ''}`, dataset: { card: stage.id } },
    h('h3', { class: 'attn-card-title' },
      h('span', { class: 'attn-card-symbol' }, symbol(stage)),
      h('span', { class: 'attn-card-noun' }, stage.noun),
      h('span', { class: 'attn-card-size' }, sizeText(instances[0].tensor))),
    instances.map((inst) => h('figure', { class: 'attn-card-figure' },
      inst.label ? h('figcaption', { class: 'attn-card-label' }, inst.label) : null,
      h('div', { class: 'figure-scroll' }, stageFigure(stage, { ...inst, editable: canEdit })))),
    caption ? h('p', { class: 'attn-card-caption' }, caption) : null);
}

function matrixView(ctx, options) {
  const show = stageFilter(options);
  const bands = [];
  for (const group of allGroups()) {
    const stages = stagesOf(group.id, ctx).filter(show);
    if (stages.length > 0) bands.push({ group, cards: stages.map((stage) => stageCard(stage, ctx, options)) });
  }
  if (bands.length === 0) {
    throw new RangeError(`stages: none of ${JSON.stringify(options.stages)} exists for this example (a given-Q, K, V example has no x or projection weights; the backward stages need a computable backward pass)`);
  }
  // Band titles only help when the figure spans several bands.
  return bands.map(({ group, cards }) => h('section', { class: 'attn-band', dataset: { band: group.id } },
    bands.length > 1 ? h('h2', { class: 'attn-band-title' }, group.title) : null,
    h('div', { class: 'attn-cards' }, cards)));
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

/** -> HTMLDivElement: the figure spec asks for (see the top of this file). */
export function pipeline(spec = {}) {
  if (!spec.attn || typeof spec.attn.attention !== 'function') {
    throw new TypeError('pipeline: spec.attn must be the module from loadAttention()');
  }
  const state = pipelineState(spec);
  return renderPipeline(state, compute(spec.attn, state), spec);
}
