// The explorer's card of a stage: the figures' card (web/figures/pipeline/render.js) with the
// formula typeset beside the title, and its tools: Check (type your own numbers for the first
// matrix, then check them; the exact matrix stays hidden until then) and the figure menu (exports).
import { matrixSize, stackCount } from '../../model/compute/tensors.js';
import { h } from '../../figures/dom.js';
import { langOf } from '../../figures/interact/messages.js';
import { stageCard } from '../../figures/pipeline/render.js';
import { checkGrid } from '../features/check/check-grid.js';
import { diagnosisOf, stageReports } from '../features/check/reports.js';
import { figureMenu } from '../../figures/export/menu.js';
import { formulaOf } from '../explain/stages.js';
import { texNode } from '../explain/typeset.js';
import { focusableWhenScrolling } from '../controls/scroll-focus.js';

/** The diagnosis's reports of the stages after `id` that are in check mode. */
function laterReports(ctx, id) {
  const stages = Object.values(diagnosisOf(ctx)?.stages ?? {});
  const at = stages.findIndex((r) => r.id === id);
  return at < 0 ? [] : stages.slice(at + 1).filter((r) => ctx.state.checks[r.id] !== undefined);
}

/** handlers: { onToggleCheck(stageId, [B, R, C]), onCheckEntry(stageId, cell, text), onCheckPaste(stageId, cell, texts), onChecked(stageId, 'checked' | 'revealed') }. */
export function explorerCard(stage, ctx, handlers) {
  const editable = Boolean(stage.editable?.(ctx));
  const entries = ctx.state.checks[stage.id];
  const checking = !editable && entries !== undefined;
  const how = ctx.state.checked?.[stage.id];
  const lang = langOf(document.documentElement);
  return stageCard(stage, ctx, {
    editable: true,
    // Until checked or revealed, the card's own figures (the exact values) are not shown.
    className: checking ? `is-checking${how ? '' : ' is-exact-hidden'}` : '',
    symbol: (s) => texNode(s.tex ?? s.title, { className: 'stage-symbol' }),
    formula: (s) => focusableWhenScrolling(texNode(formulaOf(s, { ...ctx, lang }), { className: 'stage-formula' })),
    below: (s, _, [first]) =>
      checking
        ? checkGrid(
            s,
            {
              entries,
              how,
              lang,
              rowLabels: first.rowLabels,
              reports: stageReports(ctx, s.id, first.tensor),
              first: diagnosisOf(ctx)?.first ?? null,
              later: laterReports(ctx, s.id),
              d: matrixSize(ctx.result.heads[ctx.head].q)[1],
            },
            {
              onEntry: (cell, text) => handlers.onCheckEntry(s.id, cell, text),
              onPaste: (cell, texts) => handlers.onCheckPaste(s.id, cell, texts),
              onCheck: () => handlers.onChecked(s.id, 'checked'),
              onReveal: () => handlers.onChecked(s.id, 'revealed'),
            },
          )
        : null,
    tools: (s, _, instances, svgs) => [
      editable
        ? null
        : h(
            'button',
            {
              type: 'button',
              class: 'chip tool-button',
              'aria-pressed': String(checking),
              dataset: { focusKey: `check:${s.id}` },
              title: ctx.t('site.check-title'),
              // The name starts with the word shown (Label in Name), pressed or not.
              'aria-label': ctx.t(checking ? 'site.checking-label' : 'site.check-label', { noun: s.noun }),
              onclick: () => handlers.onToggleCheck(s.id, [stackCount(instances[0].tensor), ...matrixSize(instances[0].tensor)]),
            },
            ctx.t(checking ? 'site.checking' : 'site.check'),
          ),
      figureMenu(s, instances, svgs, ctx),
    ],
  });
}
