// Typing a number into a cell: an <input> laid over the cell. Enter or leaving the field
// commits, Escape cancels; focus goes back to the cell either way. Accepts '−' and ',' as
// typed on some keyboards; anything that is not a finite number is refused (the field shakes).

function parseNumber(text) {
  const cleaned = text.trim().replace(/\u2212/g, '-').replace(',', '.');
  if (cleaned === '') return NaN;
  return Number(cleaned);
}

/** Opens the editor over cellNode with `initial`; onCommit(value) on success. */
export function editCell(cellNode, initial, onCommit) {
  const host = cellNode.closest('.figure-scroll') ?? cellNode.ownerSVGElement.parentElement;
  const box = cellNode.querySelector('.tile').getBoundingClientRect();
  const hostBox = host.getBoundingClientRect();
  const input = document.createElement('input');
  input.className = 'cell-editor';
  input.type = 'text';
  input.inputMode = 'decimal';
  input.value = String(initial);
  input.setAttribute('aria-label', `${cellNode.getAttribute('aria-label')}. Type a number, Enter to set, Escape to cancel`);
  Object.assign(input.style, {
    left: `${box.left - hostBox.left + host.scrollLeft - 6}px`,
    top: `${box.top - hostBox.top + host.scrollTop - 2}px`,
    width: `${Math.max(64, box.width + 12)}px`,
    height: `${box.height + 4}px`,
  });
  let done = false;
  const close = (commit) => {
    if (done) return;
    const value = parseNumber(input.value);
    if (commit && !Number.isFinite(value)) {
      input.classList.remove('is-invalid');
      void input.offsetWidth; // restart the shake animation
      input.classList.add('is-invalid');
      return;
    }
    done = true;
    input.remove();
    cellNode.focus({ preventScroll: true });
    if (commit && value !== initial) onCommit(value);
  };
  input.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Enter') { event.preventDefault(); close(true); }
    if (event.key === 'Escape') { event.preventDefault(); close(false); }
  });
  input.addEventListener('blur', () => { if (!done) { done = true; input.remove(); const v = parseNumber(input.value); if (Number.isFinite(v) && v !== initial) onCommit(v); } });
  host.append(input);
  input.focus();
  input.select();
}
