// heatmapLayout(weights, options) -> the heatmap as drawn, without drawing it: every position, size
// and text, and the colour scale. heatmap() (heatmap.js) turns it into SVG elements; the command
// line (cli/figure-svg.js) writes the same layout into a file as text, so a figure from the
// browser and one from the command line agree cell for cell. No DOM here.
//
// weights: { data, shape } (Tq, Tk) or (B, Tq, Tk), or nested arrays; batches are stacked as more rows.
// options: heatmap()'s rowLabels, colLabels, batchLabel, title, xlabel, ylabel, colorScale,
//   masked (left out of a signed scale's domain), cellSize, lang. Rows, columns and batches
//   without labels are counted from 0, as everywhere in the package.
// -> {
//   weights, lang, B, R, C (rows per batch, columns), rowLabels (B*R, as drawn), colLabels (C),
//   scale (colorScale()), tone(v) (the scale's tone, or 'nan' for NaN: grey, never mistaken for a
//   weight), size (px per cell), cell { width, height, rx } (a cell's rect),
//   cellX(j), cellY(r) (a cell's top left; r counts the stacked rows),
//   texts: [{ role ('title' | 'axis' | 'axis-title' | 'legend'), text, attrs }] in drawing order
//     (title, then each row's label, the column labels, the axis titles, the colour bar's numbers;
//     attrs are the <text>'s x, y, dy, text-anchor, transform and font-size),
//   bar: { x, y, width, height, rx, stops: [[offset, tone, t]] }, the colour bar beside the map,
//   name (the figure's accessible name), width, height }
import { toTensor } from '../src/to-tensor.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { colorScale, gradientStops } from './color.js';
import { formatNumber } from './format.js';
import { widestText } from './svg.js';

const FONT = 11;
const TITLE_FONT = 12.5;
const LEGEND_FONT = 10;
const BAR_WIDTH = 9;

/** [B, R, C] of a tensor drawn as a heatmap: a vector is one row; leading axes are batches. */
function stackShape(t) {
  const [R, C] = t.shape.length === 1 ? [1, t.shape[0]] : t.shape.slice(-2);
  return [t.data.length / (R * C) || 1, R, C];
}

/** "0", "1", ... "n-1": the labels of an axis without labels. */
const positions = (n) => Array.from({ length: n }, (_, i) => String(i));

const text = (role, value, attrs) => ({ role, text: value, attrs });

/**
 * The vertical colour bar at (x, y), `height` tall, its max, middle and min written beside it, as
 * matplotlib's colorbar: -> { bar, texts, width } (width: from x to the end of its longest number).
 */
export function colorBarLayout(scale, x, y, height) {
  const bar = { x, y, width: BAR_WIDTH, height, rx: 3, stops: gradientStops(scale) };
  const ticks = [
    [scale.max, 0],
    [(scale.min + scale.max) / 2, 0.5],
    [scale.min, 1],
  ].map(([v, f]) => text('legend', formatNumber(v), { x: x + 14, y: y + f * height, dy: '0.35em', 'font-size': LEGEND_FONT }));
  const width =
    14 +
    Math.ceil(
      widestText(
        ticks.map((t) => t.text),
        LEGEND_FONT,
      ),
    ) +
    4;
  return { bar, texts: ticks, width };
}

export function heatmapLayout(input, options = {}) {
  const weights = toTensor(input, 'heatmap: weights');
  const lang = langOption(options.lang, 'heatmap');
  const say = (key, params) => figureMessage(lang, key, params);
  const { masked = null } = options;
  const { title = say('figure.heatmap.title'), xlabel = say('figure.heatmap.xlabel'), ylabel = say('figure.heatmap.ylabel') } = options;
  const [B, R, C] = stackShape(weights);
  const colLabels = options.colLabels ?? positions(C);
  const baseRows = options.rowLabels ?? positions(R);
  const batchLabel = options.batchLabel ?? ((b) => `b${b}`);
  const rowLabels = Array.from({ length: B * R }, (_, r) => (B > 1 ? `${batchLabel(Math.floor(r / R))} · ` : '') + baseRows[r % R]);
  const kind = options.colorScale ?? 'weights';
  if (kind !== 'weights' && kind !== 'signed') throw new TypeError(`heatmap: colorScale must be 'weights' or 'signed', got ${JSON.stringify(kind)}`);
  const scale = colorScale(kind, weights.data, (k) => !(masked && masked[k]));

  const size = options.cellSize ?? Math.max(14, Math.min(40, Math.floor(400 / Math.max(C, B * R))));
  const longest = widestText(colLabels, FONT);
  const slanted = longest > size - 2; // labels wider than a cell are written at -40 degrees
  const tickH = slanted ? Math.ceil(longest * 0.72) + 10 : 16;
  const x0 = 30 + Math.ceil(widestText(rowLabels, FONT));
  const y0 = title ? 24 : 6;
  const gridW = C * size;
  const gridH = B * R * size;
  const cellX = (j) => x0 + j * size;
  const cellY = (r) => y0 + r * size;

  const texts = [];
  if (title) texts.push(text('title', title, { x: x0, y: 15, 'font-size': TITLE_FONT }));
  rowLabels.forEach((label, r) => {
    texts.push(text('axis', label, { x: x0 - 6, y: cellY(r) + size / 2, dy: '0.35em', 'text-anchor': 'end', 'font-size': FONT }));
  });
  const tickY = y0 + gridH + 6;
  colLabels.forEach((label, j) => {
    const x = cellX(j) + size / 2;
    texts.push(
      text(
        'axis',
        label,
        slanted
          ? { x, y: tickY + 4, 'text-anchor': 'end', transform: `rotate(-40 ${x} ${tickY + 4})`, 'font-size': FONT }
          : { x, y: tickY + 9, 'text-anchor': 'middle', 'font-size': FONT },
      ),
    );
  });
  const xlabelY = tickY + tickH + 10;
  texts.push(
    text('axis-title', xlabel, { x: x0 + gridW / 2, y: xlabelY, 'text-anchor': 'middle', 'font-size': FONT + 0.5 }),
    text('axis-title', ylabel, { x: 0, y: 0, transform: `translate(11 ${y0 + gridH / 2}) rotate(-90)`, 'text-anchor': 'middle', 'font-size': FONT + 0.5 }),
  );
  const barX = x0 + gridW + 14;
  const barH = Math.max(60, gridH);
  const colorBar = colorBarLayout(scale, barX, y0, barH);
  texts.push(...colorBar.texts);

  return {
    weights,
    lang,
    B,
    R,
    C,
    rowLabels,
    colLabels,
    scale,
    tone: (v) => (Number.isNaN(v) ? 'nan' : scale.tone(v)),
    size,
    cell: { width: size - 1, height: size - 1, rx: 2 },
    cellX,
    cellY,
    texts,
    bar: colorBar.bar,
    name: say('figure.heatmap.name', { title, rows: B * R, cols: C }),
    width: barX + colorBar.width,
    height: Math.max(xlabelY + 6, y0 + barH + 6),
  };
}
