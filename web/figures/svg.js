// SVG helpers: ids, text widths, the hatch pattern (svg() is dom.js's).
import { svg } from './dom.js';

export { svg };

let counter = 0;
/** An id unique in the document (hatch patterns, gradients: several figures share a page). */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter.toString(36)}`;
}

/** Rough width of a text in px at `size`: tabular digits are ~0.6em wide in most UI fonts. */
export function textWidth(text, size) {
  return String(text).length * size * 0.6;
}

/** The rough width of the longest of `texts` (0 for none), by a loop: Math.max(...texts) overflows the stack near 10^5 items. */
export function widestText(texts, size) {
  let widest = 0;
  for (const text of texts) widest = Math.max(widest, textWidth(text, size));
  return widest;
}

/** The diagonal-stripe pattern masked cells are filled with; -> { id, node } for <defs>. */
export function hatchPattern() {
  const id = uid('attn-hatch');
  const node = svg('pattern', { id, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, [
    svg('rect', { width: 6, height: 6, class: 'attn-hatch-bg' }),
    svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'attn-hatch-line' }),
  ]);
  return { id, node };
}
