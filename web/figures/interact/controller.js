// Touching a pipeline's cells, wherever it is drawn (the explorer, <attn-figure>): an editable
// cell is typed into (Enter, Space, click) or scrubbed (drag); a click masks a score; focus stays
// on the same cell across re-renders. The caller says only how an edit reaches its store.
import { stageById } from '../../model/stages/registry.js';
import { cellValue, setCell, toggleMaskedCell } from '../../model/state/edit.js';
import { editCell } from './cell-editor.js';
import { cellIdentity } from './cell-identity.js';
import { focusedCell, restoreFocus } from './focus.js';
import { scrubCell } from './scrub.js';

const MASKABLE = new Set(['scores', 'scaled', 'masked']);

/**
 * state(): the shown state; edit(change): applies change(state) -> state; enabled(): false makes
 * cells inert; onMask(id): after a mask toggle. -> { show(node) }: root's new content, focus kept.
 */
export function cellController(root, { state, edit, enabled = () => true, onMask = () => {} }) {
  let suppressClick = false;

  const editableCell = (node) => {
    const id = cellIdentity(node);
    return id && stageById(id.stage)?.editable?.({ state: state() }) ? id : null;
  };
  const setter = (id) => (value) => edit((s) => setCell(s, id, value));

  root.addEventListener('attn-cell-activate', (event) => {
    if (!enabled()) return;
    if (event.detail.via === 'pointer' && suppressClick) {
      suppressClick = false;
      return;
    }
    const id = cellIdentity(event.target);
    if (!id) return;
    if (editableCell(event.target)) {
      editCell(event.target, cellValue(state(), id), setter(id));
    } else if (MASKABLE.has(id.stage)) {
      edit((s) => toggleMaskedCell(s, id.batch, id.row, id.col));
      onMask(id);
    }
  });

  root.addEventListener('pointerdown', (event) => {
    // A new press: the click ending the last drag may never have come (its cell was redrawn).
    suppressClick = false;
    if (event.button !== 0 || !enabled()) return;
    const node = event.target.closest?.('.cell.editable');
    const id = node && editableCell(node);
    if (!id) return;
    event.preventDefault(); // no text selection while dragging
    node.focus({ preventScroll: true });
    scrubCell(event, cellValue(state(), id), setter(id), (dragged) => {
      suppressClick = dragged;
    });
  });

  return {
    show(node) {
      const remembered = focusedCell(root);
      root.replaceChildren(node);
      restoreFocus(root, remembered);
    },
  };
}
