// Keeps keyboard focus on "the same cell" across a re-render (the views are rebuilt on every
// edit): remember the focused cell's identity, find its twin in the new DOM, focus it. A field
// of check mode keeps what is being typed in it (and the caret) too.

const KEYS = ['stage', 'head', 'run', 'scoring', 'param'];

/** An identity for the focused figure cell inside root, or null. */
export function focusedCell(root) {
  // The root's own document or shadow root knows its focused element (a page sees only the host).
  const field = root.getRootNode().activeElement;
  // Buttons of the cards (Check, Export) name themselves with data-focus-key.
  if (field?.dataset?.focusKey && root.contains(field)) return { key: field.dataset.focusKey };
  if (field?.dataset?.checkInput && root.contains(field)) {
    const { checkInput, batch, row, col } = field.dataset;
    // edited: typed in since it was drawn (a paste that filled the grid changed the state, not the field).
    return {
      field: { checkInput, batch, row, col },
      value: field.value,
      edited: field.value !== field.defaultValue,
      selection: [field.selectionStart, field.selectionEnd],
    };
  }
  const cell = field?.closest?.('[role="gridcell"]');
  if (!cell || !root.contains(cell)) return null;
  return cellKey(cell);
}

/** What names a figure cell across re-renders: { figure: its svg's data keys, cell: its own }. */
export function cellKey(cell) {
  const figure = cell.closest('svg[data-stage]');
  const id = {};
  for (const k of KEYS) if (figure.dataset[k] !== undefined) id[k] = figure.dataset[k];
  return { figure: id, cell: { batch: cell.dataset.batch, row: cell.dataset.row, col: cell.dataset.col, side: cell.dataset.side, index: cell.dataset.index } };
}

/** The cell of the new DOM that cellKey() named, or null. */
export function findCell(root, { figure, cell }) {
  const figureSel = Object.entries(figure)
    .map(([k, v]) => `[data-${k}="${CSS.escape(v)}"]`)
    .join('');
  const cellSel = Object.entries(cell)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `[data-${k}="${CSS.escape(v)}"]`)
    .join('');
  return root.querySelector(`svg${figureSel} [role="gridcell"]${cellSel}`);
}

function restoreField(root, { field, value, edited, selection }) {
  const selector = Object.entries(field)
    .map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(v)}"]`)
    .join('');
  const target = root.querySelector(`input${selector}`);
  if (!target) return;
  if (edited) target.value = value;
  target.focus({ preventScroll: true });
  if (edited) target.setSelectionRange(...selection);
}

export function restoreFocus(root, remembered) {
  if (!remembered) return;
  if (remembered.field) {
    restoreField(root, remembered);
    return;
  }
  if (remembered.key) {
    root.querySelector(`[data-focus-key="${CSS.escape(remembered.key)}"]`)?.focus({ preventScroll: true });
    return;
  }
  const target = findCell(root, remembered);
  if (!target) return;
  for (const other of target.closest('svg').querySelectorAll('[role="gridcell"][tabindex="0"]')) other.setAttribute('tabindex', '-1');
  target.setAttribute('tabindex', '0');
  target.focus({ preventScroll: true });
}
