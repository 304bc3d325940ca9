// The explorer's card of a stage: the figures' card (web/figures/pipeline/render.js) with the
// formula typeset beside the title, and its tools: Check (type your own numbers for the first
// matrix and see which differ) and the figure menu (exports).
import { matrixSize, stackCount } from '../../model/compute/tensors.js';
import { h } from '../../figures/dom.js';
import { stageCard } from '../../figures/pipeline/render.js';
import { checkGrid } from '../features/check/check-grid.js';
import { figureMenu } from '../../figures/export/menu.js';
import { formulaOf } from '../explain/stages.js';
import { texNode } from '../explain/typeset.js';

/** handlers: { onToggleCheck(stageId, [B, R, C]), onCheckEntry(stageId, cell, text) }. */
export function explorerCard(stage, ctx, handlers) {
  const editable = Boolean(stage.editable?.(ctx));
  const entries = ctx.state.checks[stage.id];
  const checking = !editable && entries !== undefined;
  return stageCard(stage, ctx, {
    editable: true,
    className: checking ? 'is-checking' : '',
    symbol: (s) => texNode(s.tex ?? s.title, { className: 'stage-symbol' }),
    formula: (s) => texNode(formulaOf(s, ctx), { className: 'stage-formula' }),
    below: (s, _, [first]) => (checking
      ? checkGrid(s, first.tensor, entries, (cell, text) => handlers.onCheckEntry(s.id, cell, text), { rowLabels: first.rowLabels })
      : null),
    tools: (s, _, instances, svgs) => [
      editable ? null : h('button', {
        type: 'button', class: 'chip tool-button', 'aria-pressed': String(checking), dataset: { focusKey: `check:${s.id}` },
        title: ctx.t('site.check-title'),
        // The name starts with the word shown (Label in Name), pressed or not.
        'aria-label': ctx.t(checking ? 'site.checking-label' : 'site.check-label', { noun: s.noun }),
        onclick: () => handlers.onToggleCheck(s.id, [stackCount(instances[0].tensor), ...matrixSize(instances[0].tensor)]),
      }, ctx.t(checking ? 'site.checking' : 'site.check')),
      figureMenu(s, instances, svgs, ctx),
    ],
  });
}
