// Touching a pipeline's cells, wherever it is drawn (the explorer, <attn-figure>): an editable
// cell is typed into (Enter, Space, click, or a digit typed on it) or scrubbed (drag); a matrix
// pasted onto an editable cell (or into its field) replaces the cell, its row or the whole matrix
// (model/state/paste.js), and a note says what changed or why nothing did; a click masks a score;
// focus stays on the same cell across re-renders. The caller says only how an edit reaches its store.
// The editing code (the field, the scrub, the state edits) loads when a figure is first shown with
// editing enabled, so a figure that is only read never downloads it.
import { stageById } from '../../model/stages/registry.js';
import { normalizeText } from '../../model/numbers/read-number.js';
import { cellIdentity } from './cell-identity.js';
import { cellKey, findCell, focusedCell, restoreFocus } from './focus.js';
import { pasteNotice } from './paste-notice.js';

const MASKABLE = new Set(['scores', 'scaled', 'masked']);

let editing = null; // Promise<{ cellValue, setCell, pasteText, toggleMaskedCell, editCell, scrubCell }>, one per page
let edits = null; // the same, once it has come

function loadEditing() {
  editing ??= Promise.all([import('../../model/state/edit.js'), import('./cell-editor.js'), import('./scrub.js')]).then(
    (modules) => (edits = Object.assign({}, ...modules)),
  );
  editing.catch(() => {
    editing = null;
  }); // a failed load (offline) is retried by the next show
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
  const notice = pasteNotice(root);
  let noticeFor; // the preset of the state a paste's note speaks of: another example takes the note away

  let open = null; // the field being typed in: editCell()'s { input, close, hold, moveTo } with its cell's id and key

  const openEditor = async (cell, typed = null) => {
    const { cellValue, editCell } = edits ?? (await loadEditing());
    const id = editableCell(cell);
    if (id) open = { ...editCell(cell, cellValue(state(), id), setter(id), { typed }), id, key: cellKey(cell) };
  };

  root.addEventListener('attn-cell-activate', async (event) => {
    if (!enabled()) return;
    if (event.detail.via === 'pointer' && suppressClick) {
      suppressClick = false;
      return;
    }
    const cell = event.target; // kept: a shadow root's event forgets its target once dispatched
    const id = cellIdentity(cell);
    if (!id) return;
    const { toggleMaskedCell } = edits ?? (await loadEditing());
    if (editableCell(cell)) {
      openEditor(cell);
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

  // A digit, sign, point or slash typed on a focused editable cell starts editing it with that key.
  root.addEventListener('keydown', (event) => {
    if (!enabled() || event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
    const cell = event.target.closest?.('[role="gridcell"].editable');
    if (!cell || !/^[0-9.,+\-/]$/.test(normalizeText(event.key))) return;
    event.preventDefault();
    openEditor(cell, event.key);
  });

  // A paste onto a focused editable cell, or into its field when the text is more than one number.
  root.addEventListener('paste', async (event) => {
    if (!enabled()) return;
    const inField = open && event.target === open.input;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    // One number pasted into the field goes in as text, to be committed with Enter.
    if (inField && /^\s*\S+\s*$/.test(text)) return;
    const cell = inField ? null : event.target.closest?.('[role="gridcell"]');
    const id = inField ? open.id : cell && editableCell(cell);
    if (!id) {
      // A computed matrix takes no paste: say where the numbers can go instead of doing nothing.
      const computed = cell && cellIdentity(cell);
      if (computed) {
        notice.refused(computed, { code: 'not-editable' });
        noticeFor = state().preset;
      }
      return;
    }
    event.preventDefault();
    if (inField) open.close(false);
    const { pasteText } = edits ?? (await loadEditing());
    try {
      const report = pasteText(state(), id, text);
      edit(() => report.state);
      notice.pasted(id, report);
      noticeFor = state().preset;
    } catch (error) {
      if (!(error instanceof RangeError) || !error.code) throw error;
      notice.refused(id, error);
      noticeFor = state().preset;
    }
  });

  const ready = (on = enabled()) => (on ? loadEditing() : Promise.resolve());

  return {
    ready,
    show(node) {
      ready().catch(() => {}); // on its way before the first touch (ready() shows a failure to whoever waits)
      // A field being typed in stays open over the same cell (typing runs ahead of the redraws).
      const typing = open?.input.isConnected && root.contains(open.input) ? open : null;
      const remembered = typing ? null : focusedCell(root);
      typing?.hold();
      if (state().preset !== noticeFor) notice.clear();
      root.replaceChildren(node, ...notice.nodes());
      if (typing) typing.moveTo(findCell(root, typing.key));
      else restoreFocus(root, remembered);
    },
  };
}
