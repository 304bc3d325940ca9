// Keeps keyboard focus on "the same cell" across a re-render (the views are rebuilt on every
// edit): remember the focused cell's identity, find its twin in the new DOM, focus it.

const KEYS = ['stage', 'head', 'run', 'scoring', 'param'];

/** An identity for the focused figure cell inside root, or null. */
export function focusedCell(root) {
  const cell = document.activeElement?.closest?.('[role="gridcell"]');
  if (!cell || !root.contains(cell)) return null;
  const figure = cell.closest('svg[data-stage]');
  const id = {};
  for (const k of KEYS) if (figure.dataset[k] !== undefined) id[k] = figure.dataset[k];
  return { figure: id, cell: { batch: cell.dataset.batch, row: cell.dataset.row, col: cell.dataset.col, side: cell.dataset.side, index: cell.dataset.index } };
}

export function restoreFocus(root, remembered) {
  if (!remembered) return;
  const figureSel = Object.entries(remembered.figure).map(([k, v]) => `[data-${k}="${CSS.escape(v)}"]`).join('');
  const cellSel = Object.entries(remembered.cell).filter(([, v]) => v !== undefined).map(([k, v]) => `[data-${k}="${CSS.escape(v)}"]`).join('');
  const target = root.querySelector(`svg${figureSel} [role="gridcell"]${cellSel}`);
  if (!target) return;
  for (const other of target.closest('svg').querySelectorAll('[role="gridcell"][tabindex="0"]')) other.setAttribute('tabindex', '-1');
  target.setAttribute('tabindex', '0');
  target.focus({ preventScroll: true });
}
