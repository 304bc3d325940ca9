// One stage as a card: its symbol and name, the formula typeset beside it, one matrix per
// instance (head/run), a caption, and its tools: Check (type your own numbers for the first
// matrix and see which differ) and the figure menu (exports).
import { matrixSize, stackCount } from '../../model/compute/tensors.js';
import { h } from '../../figures/dom.js';
import { sizeText } from '../../model/stages/common.js';
import { stageFigure as figureOf } from '../../figures/pipeline/stage-figure.js';
import { checkGrid } from '../features/check/check-grid.js';
import { figureMenu } from '../../figures/export/menu.js';
import { formulaOf } from '../explain/stages.js';
import { texNode } from '../explain/typeset.js';

/** handlers: { onToggleCheck(stageId, [B, R, C]), onCheckEntry(stageId, cell, text) }. */
export function stageCard(stage, ctx, handlers) {
  const instances = stage.instances(ctx);
  const editable = Boolean(stage.editable?.(ctx));
  const svgs = instances.map((inst) => figureOf(stage, { ...inst, editable }));
  const figures = instances.map((inst, k) => h('figure', { class: 'figure' },
    inst.label ? h('figcaption', { class: 'figure-label' }, inst.label) : null,
    h('div', { class: 'figure-scroll' }, svgs[k])));
  const first = instances[0];
  const entries = ctx.state.checks[stage.id];
  const checking = !editable && entries !== undefined;
  const checkButton = editable ? null : h('button', {
    type: 'button', class: 'chip tool-button', 'aria-pressed': String(checking), dataset: { focusKey: `check:${stage.id}` },
    title: 'Check my hand calculation: type your numbers for this matrix',
    // The name starts with the word shown (Label in Name), pressed or not.
    'aria-label': `${checking ? 'Checking' : 'Check'} my calculation of ${stage.noun}`,
    onclick: () => handlers.onToggleCheck(stage.id, [stackCount(first.tensor), ...matrixSize(first.tensor)]),
  }, checking ? 'Checking' : 'Check');
  const menu = figureMenu(stage, instances, svgs, ctx);
  const caption = stage.caption?.(ctx);
  return h('article', { class: `stage-card${editable ? ' is-editable' : ''}${checking ? ' is-checking' : ''}`, dataset: { card: stage.id } },
    h('header', { class: 'stage-head' },
      h('h3', { class: 'stage-title' },
        texNode(stage.tex ?? stage.title, { className: 'stage-symbol' }),
        h('span', { class: 'stage-noun' }, stage.noun),
        h('span', { class: 'stage-size' }, sizeText(first.tensor)),
        editable ? h('span', { class: 'badge' }, 'editable') : null),
      texNode(formulaOf(stage, ctx), { className: 'stage-formula' })),
    h('div', { class: 'stage-figures' }, figures),
    checking ? checkGrid(stage, first.tensor, entries, (cell, text) => handlers.onCheckEntry(stage.id, cell, text), { rowLabels: first.rowLabels }) : null,
    caption ? h('p', { class: 'stage-caption' }, caption) : null,
    // At the foot, so the tools never make a card wider than its figure.
    h('footer', { class: 'stage-tools' }, checkButton, menu));
}
