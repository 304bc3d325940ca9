// The main view: the pipeline (matrix view), or the heatmaps or links of every head. Also where
// cells are edited: typing (Enter), scrubbing (drag), and masking a score by clicking it.
import { cellIdentity } from '../../figures/interact/cell-identity.js';
import { editCell } from '../../figures/interact/cell-editor.js';
import { h } from '../../figures/dom.js';
import { scrubCell } from '../../figures/interact/scrub.js';
import { stageById } from '../../model/stages/registry.js';
import { cellValue, setCell, setCheckEntry, toggleCheck, toggleMaskedCell } from '../../model/state/edit.js';
import { galleryView } from '../../figures/pipeline/gallery.js';
import { figureMenu } from '../../figures/export/menu.js';
import { focusedCell, restoreFocus } from '../../figures/interact/focus.js';
import { pipelineView } from '../pipeline/pipeline.js';

const MASKABLE = new Set(['scores', 'scaled', 'masked']);

function isEditable(app, id) {
  const stage = id && stageById(id.stage);
  return Boolean(stage?.editable?.({ state: app.store.get() }));
}

function mount(container, app) {
  const { store } = app;
  let suppressClick = false;

  container.addEventListener('attn-cell-activate', (event) => {
    const id = cellIdentity(event.target);
    if (!id) return;
    if (event.detail.via === 'pointer' && suppressClick) {
      suppressClick = false;
      return;
    }
    if (isEditable(app, id)) {
      editCell(event.target, cellValue(store.get(), id), (value) => store.update((s) => setCell(s, id, value)));
    } else if (MASKABLE.has(id.stage)) {
      store.update((s) => toggleMaskedCell(s, id.batch, id.row, id.col));
      app.announce(`Score ${id.row + 1}, ${id.col + 1} mask toggled`);
    }
  });

  container.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    const cellNode = event.target.closest?.('.cell.editable');
    const id = cellIdentity(cellNode);
    if (!id) return;
    event.preventDefault(); // no text selection while dragging
    cellNode.focus({ preventScroll: true });
    scrubCell(event, cellValue(store.get(), id), (value) => store.update((s) => setCell(s, id, value)), (dragged) => {
      suppressClick = dragged;
    });
  });

  return {
    update(state, result, error) {
      if (error) {
        container.replaceChildren(h('p', { class: 'error-box', role: 'alert' }, `This state cannot be computed: ${error.message}`));
        return;
      }
      const remembered = focusedCell(container);
      const ctx = { state, result, head: state.head };
      const view = state.view === 'matrix'
        ? pipelineView(ctx, {
          onHead: (head) => store.update({ head }),
          onToggleCheck: (stage, shape) => store.update((s) => toggleCheck(s, stage, shape)),
          onCheckEntry: (stage, cell, text) => store.update((s) => setCheckEntry(s, stage, cell, text)),
        })
        : galleryView(ctx, state.view, { tools: figureMenu });
      container.replaceChildren(view);
      restoreFocus(container, remembered);
    },
  };
}

export const viewsPanel = { id: 'views', slot: 'main', order: 100, mount };
