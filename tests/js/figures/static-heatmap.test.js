// One static renderer: the command line's SVG file (cli/figure-svg.js, text written without a DOM)
// and heatmap()'s elements draw the same heatmapLayout(), so for the same weights they must agree
// cell for cell: the same cells at the same places with the same values, the same texts at the
// same places (labels, positions counted from 0, axis titles, the colour bar's numbers), the same
// colour bar, and the same colours, Chromium's CSS colour-mix() of the figure against the file's
// #rrggbb. Browser only (it needs a CSS engine for the figure's colours).
import { describe, expect, it } from 'vitest';
import { heatmap } from '../../../web/figures/index.js';
import { heatmapSvg } from '../../../cli/figure-svg.js';
import { attach } from '../support/dom.js';
import { barOf, colourMisses, rgbOf, textsOf, withFigureStyles } from '../support/drawn-colours.js';

const HAS_DOM = typeof document !== 'undefined';
// CSS mixes in floats and rounds once; the file's colours are the same oklab mix (toneMix) rounded
// once: one level of 255 per channel is the rounding, anything more is a different colour.
const LEVEL = 1;

const translate = (node) =>
  (node.getAttribute('transform') ?? 'translate(0 0)')
    .match(/translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/)
    .slice(1)
    .map(Number);

/** The figure's cells: { place 'row,col', value, x, y, width, height, rx, rgb } in document order. */
function domCells(figure) {
  return [...figure.querySelectorAll('g.cell')].map((cell) => {
    const tile = cell.querySelector('rect');
    const [x, y] = translate(cell);
    return {
      place: `${cell.dataset.row},${cell.dataset.col}`,
      value: cell.dataset.value,
      box: [x, y, tile.getAttribute('width'), tile.getAttribute('height'), tile.getAttribute('rx')].map(Number),
      rgb: rgbOf(getComputedStyle(tile).fill),
    };
  });
}

/** The file's cells, the same fields: a row's <g> holds its y, each <rect> its x and colour. */
function fileCells(file) {
  return [...file.querySelectorAll('g.row > rect')].map((rect) => {
    const row = rect.parentNode;
    const [, y] = translate(row);
    return {
      place: `${row.getAttribute('data-row')},${rect.getAttribute('data-col')}`,
      value: rect.getAttribute('data-value'),
      box: [rect.getAttribute('x'), y, rect.getAttribute('width'), rect.getAttribute('height'), rect.getAttribute('rx')].map(Number),
      rgb: rgbOf(rect.getAttribute('fill')),
    };
  });
}

describe.skipIf(!HAS_DOM)("the command line's SVG file and heatmap() draw one layout", () => {
  withFigureStyles();

  // Weights (all in [0, 1]: the fixed scale) with tokens; scores (signed: the diverging scale) without.
  // Each has a NaN: grey in both (it was the paper's colour in heatmap(), grey in the file).
  const Tq = 5;
  const Tk = 7;
  const cases = [
    {
      what: 'weights with tokens',
      data: Float32Array.from({ length: Tq * Tk }, (_, k) => (k === 5 ? NaN : ((k * 37) % 101) / 100)),
      rows: ['the', 'cat', 'sat', 'on', 'mats'],
      cols: ['<s>', 'the', 'cat', 'sat', 'on', 'the', 'mat'],
      kind: 'weights',
    },
    {
      what: 'signed scores with positions only',
      data: Float32Array.from({ length: Tq * Tk }, (_, k) => (k === 3 ? NaN : (((k * 53) % 97) - 48) / 7)),
      rows: null,
      cols: null,
      kind: 'signed',
    },
  ];

  for (const { what, data, rows, cols, kind } of cases) {
    it(`${what}: the same cells, values, places, texts, colour bar and colours within ${LEVEL}/255`, () => {
      const title = 'attention[0, 1]';
      const figure = heatmap({ data, shape: [Tq, Tk] }, { title, rowLabels: rows ?? undefined, colLabels: cols ?? undefined, colorScale: kind });
      attach(figure);
      const { chunks, width, height } = heatmapSvg({ data, Tq, Tk, rows, cols, title });
      const file = new DOMParser().parseFromString(chunks.join(''), 'image/svg+xml').documentElement;
      expect(file.querySelector('parsererror'), 'the file parses as SVG').toBeNull();
      expect([width, height, file.getAttribute('width'), file.getAttribute('height')].map(Number)).toEqual(
        [figure.getAttribute('width'), figure.getAttribute('height')].map(Number).concat([width, height]),
      );
      const drawn = domCells(figure);
      const written = fileCells(file);
      expect(drawn).toHaveLength(Tq * Tk);
      const strip = (cells) => cells.map(({ place, value, box }) => `${place} ${value} [${box}]`);
      expect(strip(written)).toEqual(strip(drawn));
      expect(colourMisses(drawn, written, LEVEL, (c) => `cell ${c.place} (${c.value})`).join('\n')).toBe('');

      // The file's texts are the figure's, the title first; with no tokens the axes count from 0.
      expect(textsOf(file)).toEqual(textsOf(figure));
      const words = textsOf(file).map((line) => line.split(' | ')[0]);
      expect(words.slice(0, 1 + Tq + Tk)).toEqual([title, ...(rows ?? ['0', '1', '2', '3', '4']), ...(cols ?? ['0', '1', '2', '3', '4', '5', '6'])]);

      const figureBar = barOf(figure, (stop) => rgbOf(getComputedStyle(stop).stopColor));
      const fileBar = barOf(file, (stop) => rgbOf(stop.getAttribute('stop-color')));
      expect(fileBar.box).toEqual(figureBar.box);
      expect(fileBar.stops.map((s) => s.offset)).toEqual(figureBar.stops.map((s) => s.offset));
      expect(colourMisses(figureBar.stops, fileBar.stops, LEVEL, (s) => `stop at ${s.offset}`).join('\n')).toBe('');
    });
  }
});
