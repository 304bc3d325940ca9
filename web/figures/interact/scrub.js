// Dragging an editable cell sideways scrubs its value: 0.02 per pixel (Shift: 0.002), rounded to
// the step, so the numbers stay short. The page re-renders while dragging, so the drag listens
// on the window rather than on the cell (which is replaced every frame).

const THRESHOLD = 3; // px of movement before a press becomes a drag (a click stays a click)

/**
 * Starts watching a press on an editable cell. onValue(value) while dragging; onEnd(dragged).
 * Returns nothing; cleans up on pointerup/cancel.
 */
export function scrubCell(event, start, onValue, onEnd) {
  const x0 = event.clientX;
  let dragging = false;
  const move = (e) => {
    const dx = e.clientX - x0;
    if (!dragging && Math.abs(dx) < THRESHOLD) return;
    if (!dragging) document.documentElement.classList.add('is-scrubbing');
    dragging = true;
    const step = e.shiftKey ? 0.002 : 0.02;
    const decimals = e.shiftKey ? 3 : 2;
    onValue(Number((start + Math.round(dx) * step).toFixed(decimals)) + 0);
  };
  const end = () => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
    document.documentElement.classList.remove('is-scrubbing');
    onEnd(dragging);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}
