// What touching a figure's cells does, for every place that draws the pipeline (the explorer's
// main view, an <attn-figure>'s body): a cell of an editable stage is typed into (Enter, Space or a
// click: cell-editor.js) or dragged sideways (scrub.js); a click on a score masks or
// unmasks it; a click that ends a drag is not also a click; and a re-render keeps focus on the
// same cell (focus.js). The caller says only how an edit reaches its store.
import { stageById } from '../../model/stages/registry.js';
import { cellValue, setCell, toggleMaskedCell } from '../../model/state/edit.js';
import { editCell } from './cell-editor.js';
import { cellIdentity } from './cell-identity.js';
import { focusedCell, restoreFocus } from './focus.js';
import { scrubCell } from './scrub.js';

// The score stages, whose cells a click masks (they are computed, so never typed into).
const MASKABLE = new Set(['scores', 'scaled', 'masked']);

/**
 * Listens on root for cell activations and drags.
 *   state()          the example state the figures show
 *   edit(change)     applies change(state) -> state to the caller's store
 *   enabled()        false: cells do nothing (an <attn-figure> without `editable`)
 *   onMask(id)       after a score's mask was toggled (the explorer announces it)
 * -> { show(node) }: replaces root's content with node, keeping focus on the same cell.
 */
export function cellController(root, { state, edit, enabled = () => true, onMask = () => {} }) {
  let suppressClick = false;

  /** The identity of node if it is a cell of a stage that is editable now, else null. */
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
    // A new press: the click that ended the last drag never reached a cell (the cell under the
    // pointer is redrawn every frame), so its suppression must not eat this press's click.
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
