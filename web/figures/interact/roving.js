// Keyboard access for a grid of focusable SVG cells: one tab stop per figure (roving tabindex),
// arrow keys move, Home/End go to the row's ends, Ctrl+Home/End to the corners. Enter, Space or
// a click dispatch 'attn-cell-activate' (bubbling, detail: the cell's dataset) for the page to
// act on (edit a number, toggle a mask); figures themselves never change data.

/** cells: rows of elements (ragged allowed). Makes the first cell the tab stop. */
export function rovingGrid(root, cells) {
  const flat = cells.flat();
  if (flat.length === 0) return;
  // Chromium makes an <svg> root a tab stop of its own (besides its cells); one stop per figure.
  root.setAttribute('tabindex', '-1');
  const position = new Map();
  cells.forEach((row, r) => row.forEach((cell, c) => position.set(cell, [r, c])));
  flat.forEach((cell, k) => cell.setAttribute('tabindex', k === 0 ? '0' : '-1'));

  const moveTo = (r, c) => {
    const row = cells[Math.max(0, Math.min(cells.length - 1, r))];
    const target = row[Math.max(0, Math.min(row.length - 1, c))];
    for (const cell of flat) cell.setAttribute('tabindex', cell === target ? '0' : '-1');
    // Wholly in view inside a figure that scrolls sideways (d2l's ten keys on a phone): focus()'s
    // own scrolling left the last key half hidden.
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };

  root.addEventListener('focusin', (event) => {
    const cell = event.target.closest?.('[role="gridcell"]');
    if (!cell || !position.has(cell)) return;
    for (const other of flat) other.setAttribute('tabindex', other === cell ? '0' : '-1');
  });

  root.addEventListener('keydown', (event) => {
    const cell = event.target.closest?.('[role="gridcell"]');
    if (!cell || !position.has(cell)) return;
    const [r, c] = position.get(cell);
    const last = cells.length - 1;
    const moves = {
      ArrowUp: [r - 1, c],
      ArrowDown: [r + 1, c],
      ArrowLeft: [r, c - 1],
      ArrowRight: [r, c + 1],
      Home: event.ctrlKey ? [0, 0] : [r, 0],
      End: event.ctrlKey ? [last, Infinity] : [r, Infinity],
    };
    if (moves[event.key]) {
      event.preventDefault();
      moveTo(...moves[event.key]);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate(cell, 'key');
    }
  });

  root.addEventListener('click', (event) => {
    const cell = event.target.closest?.('[role="gridcell"]');
    if (cell && position.has(cell)) activate(cell, 'pointer');
  });
}

function activate(cell, via) {
  cell.dispatchEvent(new CustomEvent('attn-cell-activate', { bubbles: true, composed: true, detail: { ...cell.dataset, via } }));
}
