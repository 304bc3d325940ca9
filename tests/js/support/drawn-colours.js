// Reading back what a figure drew, for the tests that hold two drawings of one layout against each
// other (heatmap() and heads() against the command line's SVG files, the canvas maps against CSS):
// the figures' stylesheet on the page for a describe, colours as [r, g, b], the channel gap
// between two colours, the texts as drawn and the colour bar. Browser only (a CSS engine).
import { afterAll, beforeAll } from 'vitest';
import css from '../../../web/figures/figures.css?raw';
import { plainColor } from '../../../web/figures/export/standalone-svg.js';

/** Puts figures.css on the page for the enclosing describe (its colours are CSS color-mix()). */
export function withFigureStyles() {
  let style;
  beforeAll(() => {
    style = document.createElement('style');
    style.textContent = css;
    document.head.append(style);
  });
  afterAll(() => style.remove());
}

/** Any CSS colour (a computed color-mix(), #rrggbb, rgb()) as [r, g, b] bytes. */
export const rgbOf = (color) => plainColor(color).match(/\d+/g).slice(0, 3).map(Number);

/** The largest difference of one channel between two [r, g, b]. */
export const channelGap = (a, b) => Math.max(...a.map((c, n) => Math.abs(c - b[n])));

/**
 * The items of two lists of { rgb } (figure, file) whose colours differ by more than `level` in a
 * channel, as lines for the message: name(item, k) says which.
 */
export function colourMisses(drawn, written, level, name) {
  return drawn.flatMap((item, k) =>
    channelGap(item.rgb, written[k].rgb) > level ? [`${name(item, k)}: figure [${item.rgb}] vs file [${written[k].rgb}]`] : [],
  );
}

/** Every text as drawn: its words, x, y, anchor, transform and size, in document order. */
export const textsOf = (root) =>
  [...root.querySelectorAll('text')].map((n) =>
    [n.textContent, ...['x', 'y', 'dy', 'text-anchor', 'transform', 'font-size'].map((a) => n.getAttribute(a))].join(' | '),
  );

/** The colour bar: its rect's box and each stop's offset and colour (colorOf(stop) -> [r, g, b]). */
export function barOf(root, colorOf) {
  const rect = root.querySelector('rect[fill^="url(#attn-bar"]');
  return {
    box: ['x', 'y', 'width', 'height', 'rx'].map((a) => Number(rect.getAttribute(a))),
    stops: [...root.querySelectorAll('linearGradient stop')].map((stop) => ({ offset: Number(stop.getAttribute('offset')), rgb: colorOf(stop) })),
  };
}
