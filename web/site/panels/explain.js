// The explanation panel: hovering or focusing a number shows how it was computed (the stage's
// explain()), typeset, and highlights the rows and columns it came from. It follows the same
// cell across edits, so scrubbing an input shows the explanation changing live.
import { cellIdentity } from '../../figures/interact/cell-identity.js';
import { h } from '../../figures/dom.js';
import { stageById } from '../../model/stages/registry.js';
import { formatNumber } from '../../figures/index.js';
import { clearHighlights, highlight, sourceSelector } from '../../figures/interact/highlight.js';
import { explainCell, explainable } from '../explain/stages.js';
import { texNode } from '../explain/typeset.js';

/** A message with keys in it: {name} in the translated text replaced by the kbd nodes[name]. */
function withKeys(text, keys) {
  return text.split(/(\{\w+\})/).flatMap((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && Object.hasOwn(keys, name) ? keys[name].map((k) => h('kbd', {}, k)) : [part];
  });
}

function placeholder(t) {
  return h(
    'div',
    { class: 'explain-empty' },
    h('p', { class: 'explain-kicker' }, t('site.explain')),
    h('p', {}, t('site.explain-intro')),
    h(
      'ul',
      { class: 'explain-keys' },
      h('li', {}, withKeys(t('site.explain-keys-move'), { tab: ['Tab'], arrows: ['←', '→', '↑', '↓'] })),
      h('li', {}, withKeys(t('site.explain-keys-enter'), { enter: ['Enter'] })),
      h('li', {}, t('site.explain-keys-drag')),
    ),
  );
}

function mount(container, app) {
  const { t, lang } = app;
  const views = app.dom.views;
  let selection = null; // cell identity being explained
  let last = null; // { state, result }

  const nodeOf = (id) => views.querySelector(sourceSelector(id));

  function render() {
    if (!selection || !last?.result) {
      clearHighlights(views);
      container.replaceChildren(placeholder(t));
      return;
    }
    const node = nodeOf(selection);
    const stage = stageById(selection.stage);
    if (!node || !explainable(stage)) {
      selection = null;
      render();
      return;
    }
    const cell = cellIdentity(node);
    const ex = explainCell(stage, { state: last.state, result: last.result, head: cell.head, lang }, cell);
    container.replaceChildren(
      h(
        'div',
        { class: 'explain-card' },
        h('button', { type: 'button', class: 'explain-close', 'aria-label': t('site.explain-close'), onclick: close }, '×'),
        h(
          'p',
          { class: 'explain-kicker' },
          t('site.explain-cell', { noun: stage.noun, row: cell.row + 1, col: cell.col + 1 }) +
            (last.result.sizes.B > 1 ? t('site.explain-batch', { batch: cell.batch }) : ''),
        ),
        h('h2', { class: 'explain-heading' }, ex.heading),
        h(
          'div',
          { class: 'explain-lines' },
          ex.lines.map((line) => texNode(line, { display: true, className: 'explain-line' })),
        ),
        h(
          'p',
          { class: 'explain-exact' },
          t('site.explain-exact'),
          h('code', {}, String(cell.value)),
          cell.value !== 0 && Number.isFinite(cell.value) ? t('site.explain-shown', { shown: formatNumber(cell.value) }) : '',
        ),
        ex.note ? h('p', { class: 'explain-note' }, ex.note) : null,
      ),
    );
    highlight(views, node, ex.sources);
  }

  function close() {
    selection = null;
    render();
  }

  const select = (event) => {
    const cellNode = event.target.closest?.('.cell');
    const id = cellIdentity(cellNode);
    if (!id) return;
    if (selection && ['stage', 'head', 'run', 'param', 'batch', 'row', 'col'].every((k) => selection[k] === id[k])) return;
    selection = id;
    render();
  };
  views.addEventListener('pointerover', select);
  views.addEventListener('focusin', select);

  return {
    update(state, result) {
      last = { state, result };
      render();
    },
  };
}

export const explainPanel = { id: 'explain', slot: 'aside', order: 100, mount };
