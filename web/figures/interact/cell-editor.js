// Typing a number into a cell: an <input> laid over the cell, as in a spreadsheet. Enter commits
// and moves down, Tab right (both wrapping through the matrix), Shift reverses them; Escape
// cancels; leaving the field commits. Focus goes to the cell moved to, or back to this one.
// The number grammar is read-number.js's: '−', a decimal comma, '1/2', full-width digits. Anything
// that is not a finite number is refused (the field shakes and stays).
import { readNumber } from '../../model/numbers/read-number.js';
import { editMessage, langOf } from './messages.js';

const parse = (text) => readNumber(text, { decimalComma: true })?.value ?? NaN;

// Where Enter and Tab move focus after committing, then with Shift.
const MOVES = { Enter: ['down', 'up'], Tab: ['right', 'left'] };

/** The cell `move` reaches from `cell` in its matrix (and batch), wrapping at the ends. */
export function neighbour(cell, move) {
  const svg = cell.closest('svg');
  const batch = cell.dataset.batch ?? '0';
  const inBatch = (c) => (c.dataset.batch ?? '0') === batch;
  const cells = [...svg.querySelectorAll('[role="gridcell"][data-row][data-col]')].filter(inBatch);
  // The matrix's size from its cells, by a loop (no spread into Math.max: web/figures never does).
  let R = 0;
  let C = 0;
  for (const c of cells) {
    R = Math.max(R, Number(c.dataset.row) + 1);
    C = Math.max(C, Number(c.dataset.col) + 1);
  }
  let r = Number(cell.dataset.row);
  let c = Number(cell.dataset.col);
  const step = move === 'down' || move === 'right' ? 1 : -1;
  if (move === 'down' || move === 'up') {
    const k = (c * R + r + step + R * C) % (R * C);
    [r, c] = [k % R, Math.floor(k / R)];
  } else {
    const k = (r * C + c + step + R * C) % (R * C);
    [r, c] = [Math.floor(k / C), k % C];
  }
  return cells.find((x) => Number(x.dataset.row) === r && Number(x.dataset.col) === c) ?? cell;
}

/**
 * Opens the editor over cellNode with `initial`; onCommit(value) on success.
 * typed: the text a key press started the edit with (replaces the value, caret at the end).
 * -> { input, close(commit, move) (close(false): cancel, as Escape), hold(), moveTo(cell) }.
 */
export function editCell(cell, initial, onCommit, { typed = null } = {}) {
  let cellNode = cell;
  const host = cellNode.closest('.figure-scroll') ?? cellNode.ownerSVGElement.parentElement;
  const box = cellNode.querySelector('.tile').getBoundingClientRect();
  const hostBox = host.getBoundingClientRect();
  const input = document.createElement('input');
  input.className = 'cell-editor';
  input.type = 'text';
  input.inputMode = 'decimal';
  input.value = typed ?? String(initial);
  input.setAttribute('aria-label', editMessage(langOf(cellNode), 'editor-label', { cell: cellNode.getAttribute('aria-label') }));
  Object.assign(input.style, {
    left: `${box.left - hostBox.left + host.scrollLeft - 6}px`,
    top: `${box.top - hostBox.top + host.scrollTop - 2}px`,
    width: `${Math.max(64, box.width + 12)}px`,
    height: `${box.height + 4}px`,
  });
  let done = false;
  let held = false; // while the figure is redrawn under the field (keep())
  /** commit: keep the typed value; move: where focus goes next ('down', 'right', ... or null: this cell). */
  const close = (commit, move = null) => {
    if (done) return;
    const value = parse(input.value);
    if (commit && !Number.isFinite(value)) {
      input.classList.remove('is-invalid');
      void input.offsetWidth; // restart the shake animation
      input.classList.add('is-invalid');
      return;
    }
    done = true;
    input.remove();
    // Focus first: the re-render the commit brings keeps focus on the cell focused now.
    (move ? neighbour(cellNode, move) : cellNode).focus({ preventScroll: false });
    if (commit && value !== initial) onCommit(value);
  };
  input.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (MOVES[event.key]) {
      event.preventDefault();
      close(true, MOVES[event.key][event.shiftKey ? 1 : 0]);
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      close(false);
    }
  });
  input.addEventListener('blur', () => {
    if (done || held) return;
    done = true;
    input.remove();
    const v = parse(input.value);
    if (Number.isFinite(v) && v !== initial) onCommit(v);
  });
  host.append(input);
  input.focus();
  if (typed === null) input.select();
  else input.setSelectionRange(input.value.length, input.value.length);
  /**
   * Keeps the field open across a redraw of its figure: hold() before the old cells go, then
   * moveTo(the same cell in the new figure), or close(false) when it is gone.
   */
  const hold = () => {
    held = true;
  };
  const moveTo = (cell) => {
    held = false;
    if (!cell) {
      close(false);
      return;
    }
    const [start, end] = [input.selectionStart, input.selectionEnd];
    cellNode = cell;
    (cell.closest('.figure-scroll') ?? cell.ownerSVGElement.parentElement).append(input);
    input.focus({ preventScroll: true });
    input.setSelectionRange(start, end);
  };
  return { input, close, hold, moveTo };
}
