// Static SVG figures built as strings from the numbers (no browser, no DOM), for papers and for the
// standalone HTML file: the heatmap of one (Tq, Tk) block and the grid of heads of an (L, H, T, Tk)
// block. Colours, numbers and the colour bar follow web/figures (through its public entry), with the
// colours resolved to #rrggbb (palette.js) so that any SVG renderer draws them.
// DOM contract: the root <svg> has data-stage; every cell is a <rect> with data-col and data-value
// (String of the float32 value, as the figure functions write it) and, with `titles`, a <title>
// tooltip, inside its row's <g class="row" data-row>; the heads grid's rows are inside
// <g class="panel" data-layer data-head>.
// Each figure is a list of chunks, the strings of the file in order, never joined here: 2^20
// cells with their tooltips can pass V8's longest string (2^29 - 24 characters), and a file is
// written chunk by chunk anyway. Labels longer than LABEL_CHARS are cut (with "…") so that
// neither a cell's tooltip nor the file grows with a file's longest token.
import { colorScale, formatNumber, fullValue, widestText } from '../web/figures/index.js';
import { el, escape, openTag } from './markup.js';
import { INK, NAN_FILL, toneColor } from './palette.js';

const FONT = 11;
const GRADIENT_STOPS = 9; // a gradient interpolates in sRGB: enough stops to follow the oklab mix
const LABEL_CHARS = 40;

/** A label as drawn: at most LABEL_CHARS UTF-16 units, the last one "…" when cut (never half a surrogate pair). */
export function shortLabel(text) {
  const label = String(text);
  if (label.length <= LABEL_CHARS) return label;
  const head = label.slice(0, LABEL_CHARS - 1);
  return `${/[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head}\u2026`;
}

/** "0", "1", ... "n-1": the labels of an axis without tokens, positions counted from 0 as everywhere. */
const positions = (n) => Array.from({ length: n }, (_, i) => String(i));

/**
 * Where a cell is, as its tooltip and the HTML page's readout say it (and heads()'s readout in
 * web/figures): "query the (3) → key cat (1)", positions from 0, each with its token when the axis has tokens.
 */
export const cellPlace = (rows, cols, i, j) => `query ${rows ? `${rows[i]} ` : ''}(${i}) → key ${cols ? `${cols[j]} ` : ''}(${j})`;

/** Tokens as drawn (each cut by shortLabel), or null for an axis without tokens. */
export const shownTokens = (tokens) => tokens?.map(shortLabel) ?? null;

/** Attention weights (every finite value in [0, 1]) on the fixed scale; anything else diverging around 0. */
export function scaleFor(data) {
  const weights = data.every((v) => !Number.isFinite(v) || (v >= 0 && v <= 1));
  return colorScale(weights ? 'weights' : 'signed', data);
}

function cellFill(scale, v) {
  return Number.isNaN(v) ? NAN_FILL : toneColor(scale.tone(v), scale.t(v));
}

/** The vertical colour bar at (x, y), `height` tall, with max, middle and min labelled. */
function colorBar(scale, x, y, height, id) {
  const stops = Array.from({ length: GRADIENT_STOPS }, (_, k) => {
    const f = k / (GRADIENT_STOPS - 1);
    const v = scale.min + f * (scale.max - scale.min);
    return el('stop', { offset: f.toFixed(3), 'stop-color': toneColor(scale.tone(v), scale.t(v)) });
  });
  return [
    el('linearGradient', { id, x1: 0, y1: 1, x2: 0, y2: 0 }, stops),
    el('rect', { x, y, width: 9, height, rx: 3, fill: `url(#${id})`, stroke: INK.grid }),
    ...[
      [scale.max, 0],
      [(scale.min + scale.max) / 2, 0.5],
      [scale.min, 1],
    ].map(([v, f]) => el('text', { x: x + 14, y: y + f * height, dy: '0.35em', 'font-size': 10, fill: INK.muted }, escape(formatNumber(v)))),
  ].join('');
}

/** -> { chunks, width, height } of the whole <svg>: its opening tag, the background, `inner`'s chunks, the closing tag. */
function svgRoot({ width, height, stage, label }, inner) {
  const chunks = [
    openTag('svg', {
      xmlns: 'http://www.w3.org/2000/svg',
      class: 'attn-figure',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': label,
      'data-stage': stage,
      'font-family': 'ui-sans-serif, system-ui, sans-serif',
    }),
    el('rect', { width, height, fill: INK.cell }),
  ];
  for (const chunk of inner) chunks.push(chunk);
  chunks.push('</svg>');
  return { chunks, width, height };
}

/**
 * One row of cells pushed onto `parts`: <g data-row transform> holding a <rect data-col data-value>
 * per column (the row's y and index written once: a 24 x 24 map's HTML page stays under 60 KiB).
 * `say(j, v)` is the tooltip of a cell, or null for none; `gap` px are left between cells.
 */
function cellRow(parts, scale, data, offset, C, x, y, size, i, say, gap = 1) {
  parts.push(openTag('g', { class: 'row', 'data-row': i, transform: `translate(0 ${y})` }));
  for (let j = 0; j < C; j++) {
    const v = data[offset + j];
    const tip = say && say(j, v);
    parts.push(
      el(
        'rect',
        { x: x + j * size, width: size - gap, height: size - gap, fill: cellFill(scale, v), 'data-col': j, 'data-value': fullValue(v) },
        tip ? el('title', {}, escape(tip)) : '',
      ),
    );
  }
  parts.push('</g>');
}

/**
 * heatmapSvg({ data (Tq, Tk), Tq, Tk, rows, cols, title, titles }) -> { chunks, width, height } of the SVG: query rows,
 * key columns, labelled axes and a colour bar, as web/figures' heatmap() lays them out. `rows` and
 * `cols` are the axes' tokens, or null for positions (0, 1, 2...).
 */
export function heatmapSvg({ data, Tq, Tk, rows: rowTokens = null, cols: colTokens = null, title = 'Attention weights', titles = true }) {
  const rowNames = shownTokens(rowTokens);
  const colNames = shownTokens(colTokens);
  const rows = rowNames ?? positions(Tq);
  const cols = colNames ?? positions(Tk);
  const scale = scaleFor(data);
  const size = Math.max(14, Math.min(40, Math.floor(400 / Math.max(Tq, Tk))));
  const x0 = 30 + Math.ceil(widestText(rows, FONT));
  const longest = widestText(cols, FONT);
  const slanted = longest > size - 2;
  const y0 = 24;
  const parts = [el('text', { x: x0, y: 15, 'font-size': 12.5, 'font-weight': 600, fill: INK.text }, escape(title))];
  for (let i = 0; i < Tq; i++) {
    parts.push(el('text', { x: x0 - 6, y: y0 + i * size + size / 2, dy: '0.35em', 'text-anchor': 'end', 'font-size': FONT, fill: INK.muted }, escape(rows[i])));
    const say = titles && ((j, v) => `${cellPlace(rowNames, colNames, i, j)}: ${formatNumber(v)}`);
    cellRow(parts, scale, data, i * Tk, Tk, x0, y0 + i * size, size, i, say);
  }
  const tickY = y0 + Tq * size + 6;
  cols.forEach((label, j) => {
    const x = x0 + j * size + size / 2;
    parts.push(
      slanted
        ? el('text', { x, y: tickY + 4, 'text-anchor': 'end', transform: `rotate(-40 ${x} ${tickY + 4})`, 'font-size': FONT, fill: INK.muted }, escape(label))
        : el('text', { x, y: tickY + 9, 'text-anchor': 'middle', 'font-size': FONT, fill: INK.muted }, escape(label)),
    );
  });
  const xlabelY = tickY + (slanted ? Math.ceil(longest * 0.72) + 10 : 16) + 10;
  parts.push(
    el('text', { x: x0 + (Tk * size) / 2, y: xlabelY, 'text-anchor': 'middle', 'font-size': FONT + 0.5, fill: INK.text }, 'Keys'),
    el('text', { transform: `translate(11 ${y0 + (Tq * size) / 2}) rotate(-90)`, 'text-anchor': 'middle', 'font-size': FONT + 0.5, fill: INK.text }, 'Queries'),
  );
  const barX = x0 + Tk * size + 14;
  const barH = Math.max(60, Tq * size);
  parts.push(colorBar(scale, barX, y0, barH, 'attn-bar'));
  const width = barX + 48;
  const height = Math.max(xlabelY + 6, y0 + barH + 6);
  return svgRoot({ width, height, stage: 'weights', label: `${title}: heatmap of ${Tq} queries by ${Tk} keys` }, parts);
}

/**
 * headsSvg({ data (L, H, T, Tk), L, H, T, Tk, rows, cols, title, titles }) -> { chunks, width, height } of the SVG: one
 * small map per layer (a row each, labelled L0, L1...) and head (a column each, H0, H1...), as
 * BertViz and web/figures' heads() lay them out, on one colour scale so that heads compare by eye.
 * `rows` and `cols` are the axes' tokens (for the tooltips), or null.
 */
export function headsSvg({ data, L, H, T, Tk, rows: rowTokens = null, cols: colTokens = null, title = 'Attention heads', titles = true }) {
  const rows = shownTokens(rowTokens);
  const cols = shownTokens(colTokens);
  const scale = scaleFor(data);
  const size = Math.max(2, Math.floor(120 / Math.max(T, Tk)));
  const gap = 14;
  const x0 = 56;
  const y0 = 40;
  const panelW = Tk * size;
  const panelH = T * size;
  const parts = [el('text', { x: x0, y: 15, 'font-size': 12.5, 'font-weight': 600, fill: INK.text }, escape(title))];
  for (let h = 0; h < H; h++) {
    parts.push(el('text', { x: x0 + h * (panelW + gap) + panelW / 2, y: y0 - 8, 'text-anchor': 'middle', 'font-size': FONT, fill: INK.muted }, `H${h}`));
  }
  for (let l = 0; l < L; l++) {
    const py = y0 + l * (panelH + gap);
    parts.push(el('text', { x: x0 - 8, y: py + panelH / 2, dy: '0.35em', 'text-anchor': 'end', 'font-size': FONT, fill: INK.muted }, `L${l}`));
    for (let h = 0; h < H; h++) {
      const px = x0 + h * (panelW + gap);
      const base = (l * H + h) * T * Tk;
      parts.push(openTag('g', { class: 'panel', 'data-layer': l, 'data-head': h }));
      for (let i = 0; i < T; i++) {
        const say = titles && ((j, v) => `layer ${l}, head ${h}: ${cellPlace(rows, cols, i, j)}: ${formatNumber(v)}`);
        // The maps are small: their cells are drawn without gaps.
        cellRow(parts, scale, data, base + i * Tk, Tk, px, py + i * size, size, i, say, 0);
      }
      parts.push('</g>');
    }
  }
  const gridW = H * (panelW + gap) - gap;
  const gridH = L * (panelH + gap) - gap;
  const barH = Math.max(60, Math.min(gridH, 240));
  parts.push(colorBar(scale, x0 + gridW + 14, y0, barH, 'attn-bar'));
  const width = x0 + gridW + 62;
  const height = Math.max(y0 + gridH, y0 + barH) + 10;
  return svgRoot({ width, height, stage: 'heads', label: `${title}: ${L} layers by ${H} heads of ${T} queries by ${Tk} keys` }, parts);
}
