// Touching a pipeline's cells, wherever it is drawn (the explorer, <attn-figure>): an editable
// cell is typed into (Enter, Space, click) or scrubbed (drag); a click masks a score; focus stays
// on the same cell across re-renders. The caller says only how an edit reaches its store.
// The editing code (the field, the scrub, the state edits) loads when a figure is first shown with
// editing enabled, so a figure that is only read never downloads it.
import { stageById } from '../../model/stages/registry.js';
import { cellIdentity } from './cell-identity.js';
import { focusedCell, restoreFocus } from './focus.js';

const MASKABLE = new Set(['scores', 'scaled', 'masked']);

let editing = null; // Promise<{ cellValue, setCell, toggleMaskedCell, editCell, scrubCell }>, one per page
let edits = null; // the same, once it has come

function loadEditing() {
  editing ??= Promise.all([import('../../model/state/edit.js'), import('./cell-editor.js'), import('./scrub.js')])
    .then((modules) => (edits = Object.assign({}, ...modules)));
  editing.catch(() => { editing = null; }); // a failed load (offline) is retried by the next show
  return editing;
}

/**
 * state(): the shown state; edit(change): applies change(state) -> state; enabled(): false makes
 * cells inert; onMask(id): after a mask toggle. -> { show(node) }: root's new content, focus kept;
 * ready(on = enabled()) -> Promise: resolves once the editing code is in (at once when not on).
 */
export function cellController(root, { state, edit, enabled = () => true, onMask = () => {} }) {
  let suppressClick = false;

  const editableCell = (node) => {
    const id = cellIdentity(node);
    return id && stageById(id.stage)?.editable?.({ state: state() }) ? id : null;
  };
  const setter = (id) => (value) => edit((s) => edits.setCell(s, id, value));

  root.addEventListener('attn-cell-activate', async (event) => {
    if (!enabled()) return;
    if (event.detail.via === 'pointer' && suppressClick) {
      suppressClick = false;
      return;
    }
    const cell = event.target; // kept: a shadow root's event forgets its target once dispatched
    const id = cellIdentity(cell);
    if (!id) return;
    const { cellValue, editCell, toggleMaskedCell } = edits ?? (await loadEditing());
    if (editableCell(cell)) {
      editCell(cell, cellValue(state(), id), setter(id));
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
    // A press before the editing code came (show() asked for it) stays a click: it opens the field.
    if (!id || !edits) return;
    event.preventDefault(); // no text selection while dragging
    node.focus({ preventScroll: true });
    edits.scrubCell(event, edits.cellValue(state(), id), setter(id), (dragged) => {
      suppressClick = dragged;
    });
  });

  const ready = (on = enabled()) => (on ? loadEditing() : Promise.resolve());

  return {
    ready,
    show(node) {
      ready().catch(() => {}); // on its way before the first touch (ready() shows a failure to whoever waits)
      const remembered = focusedCell(root);
      root.replaceChildren(node);
      restoreFocus(root, remembered);
    },
  };
}
