// Hover derivations in the lab's head pipeline: pointing at (or focusing) a number shows how it was
// computed, as the explorer's explanation panel does (the same explainCell per stage, typeset by
// KaTeX, with the rows and columns it came from highlighted), in a box under the pipeline.
import { cellIdentity } from '../../../figures/interact/cell-identity.js';
import { h } from '../../../figures/dom.js';
import { clearHighlights, highlight } from '../../../figures/interact/highlight.js';
import { stageById } from '../../../model/stages/registry.js';
import { explainCell, explainable } from '../../explain/stages.js';
import { texNode } from '../../explain/typeset.js';

/** Explains the cells of `root` (a pipeline of `state` computed as `result`) in `box`. */
export function attachDerivations(root, box, { state, result, lang, t }) {
  box.replaceChildren(h('p', { class: 'lab-hint' }, t('lab.derivation-hint')));
  const show = (event) => {
    const node = event.target.closest?.('.cell');
    const cell = cellIdentity(node);
    const stage = cell && stageById(cell.stage);
    if (!stage || !explainable(stage)) return;
    const ex = explainCell(stage, { state, result, head: cell.head, lang }, cell);
    box.replaceChildren(
      h('p', { class: 'explain-kicker' }, t('site.explain-cell', { noun: stage.noun, row: cell.row + 1, col: cell.col + 1 })),
      h('h4', { class: 'explain-heading' }, ex.heading),
      h(
        'div',
        { class: 'explain-lines' },
        ex.lines.map((line) => texNode(line, { display: true, className: 'explain-line' })),
      ),
      h('p', { class: 'explain-exact' }, t('site.explain-exact'), h('code', {}, String(cell.value))),
      ex.note ? h('p', { class: 'explain-note' }, ex.note) : null,
    );
    box.dataset.stage = cell.stage;
    clearHighlights(root);
    highlight(root, node, ex.sources);
  };
  root.addEventListener('pointerover', show);
  root.addEventListener('focusin', show);
}
