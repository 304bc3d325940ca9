// One layout for the model view: the command line's SVG file (cli/figure-svg.js headsSvg, text
// written without a DOM) and heads()'s canvases draw the same headsLayout(), so for the same
// attentions they must agree: the same maps (layer, head) at the same places and sizes, the same
// texts at the same places (title, H0.., L0.., counted from 0, the colour bar's numbers), the same
// colour bar, and the same colours for the same weights (a canvas pixel against the file's #rrggbb
// cell). Browser only (canvases and the figure's CSS colours).
import { describe, expect, it } from 'vitest';
import { heads, headsLayout } from '../../../web/figures/index.js';
import { headsSvg } from '../../../cli/figure-svg.js';
import { attach } from '../support/dom.js';
import { barOf, channelGap, colourMisses, rgbOf, textsOf, withFigureStyles } from '../support/drawn-colours.js';

const HAS_DOM = typeof document !== 'undefined';
// The canvas and the file mix the same oklab colours (toneMix) and each rounds once: one level
// of 255 per channel is the rounding, anything more is a different colour.
const LEVEL = 1;

const rowY = (row) => Number(row.getAttribute('transform').match(/translate\(0 ([-\d.e]+)\)/)[1]);

/** The figure's maps: 'layer/head' and the canvas's box [x, y, width, height] in the grid, as laid out on the page. */
function figureMaps(figure) {
  const grid = figure.querySelector('.attn-heads-grid').getBoundingClientRect();
  return [...figure.querySelectorAll('canvas.attn-thumb')].map((canvas) => {
    const box = canvas.getBoundingClientRect();
    return `${canvas.dataset.layer}/${canvas.dataset.head} [${[box.left - grid.left, box.top - grid.top, box.width, box.height]}]`;
  });
}

/** The file's maps, the same fields: a panel spans its first cell's top left to its last cell's bottom right. */
function fileMaps(file) {
  return [...file.querySelectorAll('g.panel')].map((panel) => {
    const rows = panel.querySelectorAll('g.row');
    const first = rows[0].querySelector('rect');
    const last = rows[rows.length - 1].lastElementChild;
    const [x, y] = [Number(first.getAttribute('x')), rowY(rows[0])];
    const right = Number(last.getAttribute('x')) + Number(last.getAttribute('width'));
    const bottom = rowY(rows[rows.length - 1]) + Number(last.getAttribute('height'));
    return `${panel.getAttribute('data-layer')}/${panel.getAttribute('data-head')} [${[x, y, right - x, bottom - y]}]`;
  });
}

describe.skipIf(!HAS_DOM)("the command line's SVG file and heads() draw one layout", () => {
  withFigureStyles();

  // Weights in [0, 1] (the fixed scale) with tokens; signed scores (the diverging scale) without.
  const [L, H, T, Tk] = [2, 3, 4, 5];
  const cases = [
    {
      what: 'weights with tokens',
      data: Float32Array.from({ length: L * H * T * Tk }, (_, k) => ((k * 37) % 101) / 100),
      rows: ['the', 'cat', 'sat', 'on'],
      cols: ['<s>', 'the', 'cat', 'sat', 'on'],
    },
    {
      what: 'signed scores with positions only',
      data: Float32Array.from({ length: L * H * T * Tk }, (_, k) => (((k * 53) % 97) - 48) / 7),
      rows: null,
      cols: null,
    },
  ];

  for (const { what, data, rows, cols } of cases) {
    it(`${what}: the same maps at the same places, texts, colour bar and colours within ${LEVEL}/255`, () => {
      const title = 'attention[0]';
      const { chunks, width, height } = headsSvg({ data, L, H, T, Tk, rows, cols, title });
      const file = new DOMParser().parseFromString(chunks.join(''), 'image/svg+xml').documentElement;
      expect(file.querySelector('parsererror'), 'the file parses as SVG').toBeNull();
      // The file's map size and scale, given to the figure: the rest is the layout's.
      const thumbSize = Number(file.querySelector('g.panel rect').getAttribute('width')) * Tk;
      const colorScale = data.some((v) => v < 0 || v > 1) ? 'signed' : 'weights';
      const figure = heads({ data, shape: [L, H, T, Tk] }, { title, aggregates: false, thumbSize, colorScale, rowLabels: rows ?? undefined });
      attach(figure);
      const frame = figure.querySelector('svg.attn-heads-frame');
      expect([frame.getAttribute('width'), frame.getAttribute('height')].map(Number)).toEqual([width, height]);

      // Every map, in the same order (a row per layer, a column per head), at the same place and size.
      const drawn = figureMaps(figure);
      expect(drawn).toHaveLength(L * H);
      expect(fileMaps(file)).toEqual(drawn);

      // The texts: the title, the heads H0.. over the columns, the layers L0.. beside the rows, the colour bar's numbers.
      expect(textsOf(file)).toEqual(textsOf(frame));
      const words = textsOf(file).map((line) => line.split(' | ')[0]);
      expect(words.slice(0, 1 + H + L)).toEqual([title, 'H0', 'H1', 'H2', 'L0', 'L1']);

      const figureBar = barOf(frame, (stop) => rgbOf(getComputedStyle(stop).stopColor));
      const fileBar = barOf(file, (stop) => rgbOf(stop.getAttribute('stop-color')));
      expect(fileBar.box).toEqual(figureBar.box);
      expect(fileBar.stops.map((s) => s.offset)).toEqual(figureBar.stops.map((s) => s.offset));
      expect(colourMisses(figureBar.stops, fileBar.stops, LEVEL, (s) => `stop at ${s.offset}`).join('\n')).toBe('');

      // Some cells of every map: the canvas's pixel (j, i) against the file's cell (i, j), and their values.
      const misses = [];
      for (const canvas of figure.querySelectorAll('canvas.attn-thumb')) {
        const { layer, head } = canvas.dataset;
        const pixels = canvas.getContext('2d').getImageData(0, 0, Tk, T).data;
        const panel = file.querySelector(`g.panel[data-layer="${layer}"][data-head="${head}"]`);
        for (const [i, j] of [
          [0, 0],
          [1, 3],
          [T - 1, Tk - 1],
          [2, 1],
        ]) {
          const rect = panel.querySelector(`g.row[data-row="${i}"] > rect[data-col="${j}"]`);
          const want = data[((Number(layer) * H + Number(head)) * T + i) * Tk + j];
          expect(rect.getAttribute('data-value')).toBe(String(want));
          const got = [...pixels.slice(4 * (i * Tk + j), 4 * (i * Tk + j) + 3)];
          const written = rgbOf(rect.getAttribute('fill'));
          if (channelGap(got, written) > LEVEL) misses.push(`layer ${layer}, head ${head}, cell (${i}, ${j}) = ${want}: canvas [${got}] vs file [${written}]`);
        }
      }
      expect(misses.join('\n')).toBe('');
    });
  }
});

// The layout alone (Node and Chromium): BertViz's order with the aggregates, one scale, and refusals.
describe('headsLayout()', () => {
  const attentions = { data: new Float32Array(2 * 2 * 3 * 3).fill(1 / 3), shape: [2, 2, 3, 3] };

  it('lays out a row per layer then the mean, a column per head then the mean and the max, counted from 0', () => {
    const layout = headsLayout(attentions, { title: 't' });
    const places = layout.maps.map((m) => `${m.layer}/${m.head}`);
    expect(places).toEqual(['0/0', '0/1', '0/mean', '0/max', '1/0', '1/1', '1/mean', '1/max', 'mean/0', 'mean/1', 'mean/mean', 'mean/max']);
    expect(layout.texts.filter((t) => t.role !== 'legend').map((t) => t.text)).toEqual(['t', 'H0', 'H1', 'mean', 'max', 'L0', 'L1', 'mean']);
    // One column shares an x, one row a y; maps never overlap.
    const at = (l, h) => layout.maps.find((m) => m.layer === l && m.head === h);
    expect([at(1, 1).x, at(1, 1).y]).toEqual([at('mean', 1).x, at(1, 'max').y]);
    expect(at(0, 1).x - at(0, 0).x).toBeGreaterThanOrEqual(layout.thumb.width);
    expect(at(1, 0).y - at(0, 0).y).toBeGreaterThanOrEqual(layout.thumb.height);
    // The mean over heads of layer 1 is the aggregate's, at its offset.
    const mean = at(1, 'mean');
    expect(mean.data[mean.offset]).toBeCloseTo(1 / 3, 6);
  });

  it('refuses a thumbSize that is not a positive number and a colour scale it does not know, naming them', () => {
    for (const thumbSize of [0, -4, NaN, '64px']) {
      expect(() => headsLayout(attentions, { thumbSize }), String(thumbSize)).toThrow(
        new RangeError(`heads: thumbSize must be a positive number of px, got ${thumbSize}`),
      );
    }
    expect(() => headsLayout(attentions, { colorScale: 'viridis' })).toThrow(new TypeError(`heads: colorScale must be 'weights' or 'signed', got "viridis"`));
  });
});
