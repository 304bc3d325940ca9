// The matrix view: every registered stage in order, band by band, for the chosen head.
import { h } from '../../figures/dom.js';
import { allGroups, stagesOf } from '../../model/stages/registry.js';
import { stageCard } from './stage-card.js';

/** handlers: { onHead(k), and the stage cards' onToggleCheck, onCheckEntry }. */
export function pipelineView(ctx, handlers) {
  const bands = [];
  let step = 0;
  for (const group of allGroups()) {
    const stages = stagesOf(group.id, ctx);
    if (stages.length === 0) continue;
    step += 1;
    bands.push(h('section', { class: `band band-${group.id}`, 'aria-labelledby': `band-${group.id}` },
      h('header', { class: 'band-head' },
        h('span', { class: 'band-step', 'aria-hidden': 'true' }, String(step)),
        h('h2', { id: `band-${group.id}`, class: 'band-title' }, group.title),
        h('p', { class: 'band-lede' }, group.lede)),
      h('div', { class: `band-cards cards-${Math.min(stages.length, 4)}` }, stages.map((s) => stageCard(s, ctx, handlers)))));
  }
  const heads = ctx.result.heads.length;
  const headTabs = heads > 1
    ? h('div', { class: 'head-tabs', role: 'tablist', 'aria-label': 'Head shown in the pipeline' },
      Array.from({ length: heads }, (_, k) => h('button', {
        type: 'button', role: 'tab', class: 'head-tab', 'aria-selected': String(k === ctx.head), tabindex: k === ctx.head ? 0 : -1,
        onclick: () => handlers.onHead(k),
      }, `head ${k + 1}`)))
    : null;
  // The head tabs sit where the heads begin: above the projection weights (X is shared).
  const at = bands.findIndex((band) => band.classList.contains('band-weights'));
  if (headTabs) bands.splice(Math.max(0, at), 0, headTabs);
  return h('div', { class: 'pipeline', id: 'pipeline' }, bands);
}
