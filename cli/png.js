// A PNG of a static SVG figure: a screenshot of the figure in the system Chromium (chromium.js).
import { drawInChromium } from './chromium.js';
import { InputError } from './errors.js';

// Chromium's largest texture side, in device pixels: a taller screenshot waits for a stable
// element until its 30 s timeout instead of failing.
const MAX_SIDE = 16384;

/**
 * -> the PNG bytes of the SVG `{ chunks, width, height }` at device scale `scale` (2: sharp in a
 * printed paper); `say(line)` reports progress.
 */
export async function renderPng(svg, { title, scale = 2, say }) {
  const side = Math.floor(MAX_SIDE / scale);
  if (svg.width > side || svg.height > side) {
    throw new InputError(
      `the figure is ${Math.ceil(svg.width)} x ${Math.ceil(svg.height)} px; a PNG at ${scale}x holds at most ${side} px a side (Chromium's limit): write SVG (--format svg), or choose fewer cells with --index`,
    );
  }
  return drawInChromium(svg, { format: 'PNG', title, scale, say }, (page) => page.locator('svg').first().screenshot({ type: 'png', omitBackground: false }));
}
