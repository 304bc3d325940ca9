// Static SVG figures built as strings from the numbers (no browser, no DOM), for papers and for the
// standalone HTML file: the heatmap of one (Tq, Tk) block and the grid of heads of an (L, H, T, Tk)
// block. Each is a web/figures layout written as text, heatmapLayout() and headsLayout() (heatmap()
// and heads() draw the same layouts as elements): every position, text and colour scale is the
// figure's. Colours are resolved to #rrggbb (palette.js) so that any SVG renderer draws them.
// DOM contract: the root <svg> has data-stage; every cell is a <rect> with data-col and data-value
// (String of the float32 value, as the figure functions write it) and, with `titles`, a <title>
// tooltip, inside its row's <g class="row" data-row>; the heads grid's rows are inside
// <g class="panel" data-layer data-head>.
// Each figure is a list of chunks, the strings of the file in order, never joined here: 2^20
// cells with their tooltips can pass V8's longest string (2^29 - 24 characters), and a file is
// written chunk by chunk anyway. Labels longer than LABEL_CHARS are cut (with "…") so that
// neither a cell's tooltip nor the file grows with a file's longest token.
import { formatNumber, fullValue, headsLayout, heatmapLayout } from '../web/figures/index.js';
import { el, escape, openTag } from './markup.js';
import { INK, NAN_FILL, toneColor } from './palette.js';

const LABEL_CHARS = 40;
// The ink of each text of a layout (figures.css's colours of the same roles).
const TEXT_INK = { title: INK.text, axis: INK.muted, 'axis-title': INK.text, legend: INK.muted };

/** A label as drawn: at most LABEL_CHARS UTF-16 units, the last one "…" when cut (never half a surrogate pair). */
export function shortLabel(text) {
  const label = String(text);
  if (label.length <= LABEL_CHARS) return label;
  const head = label.slice(0, LABEL_CHARS - 1);
  return `${/[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head}\u2026`;
}

/**
 * Where a cell is, as its tooltip and the HTML page's readout say it (and heads()'s readout in
 * web/figures): "query the (3) → key cat (1)", positions from 0, each with its token when the axis has tokens.
 */
export const cellPlace = (rows, cols, i, j) => `query ${rows ? `${rows[i]} ` : ''}(${i}) → key ${cols ? `${cols[j]} ` : ''}(${j})`;

/** Tokens as drawn (each cut by shortLabel), or null for an axis without tokens. */
export const shownTokens = (tokens) => tokens?.map(shortLabel) ?? null;

/** Attention weights (every finite value in [0, 1]) on the fixed scale ('weights'); anything else diverging around 0 ('signed'). */
const scaleKind = (data) => (data.every((v) => !Number.isFinite(v) || (v >= 0 && v <= 1)) ? 'weights' : 'signed');

function cellFill(scale, v) {
  return Number.isNaN(v) ? NAN_FILL : toneColor(scale.tone(v), scale.t(v));
}

/** A text of a layout ({ role, text, attrs }) as a <text> element. */
const textMarkup = ({ role, text, attrs }) => el('text', { ...attrs, fill: TEXT_INK[role], 'font-weight': role === 'title' ? 600 : null }, escape(text));

/** A colour bar of a layout ({ x, y, width, height, rx, stops }), its gradient's id `id`. */
function barMarkup({ x, y, width, height, rx, stops }, id) {
  return [
    el(
      'linearGradient',
      { id, x1: 0, y1: 1, x2: 0, y2: 0 },
      stops.map(([offset, tone, t]) => el('stop', { offset, 'stop-color': toneColor(tone, t) })),
    ),
    el('rect', { x, y, width, height, rx, fill: `url(#${id})`, stroke: INK.grid }),
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
 * per column (the row's y and index written once: a 24 x 24 map's HTML page stays under 64 KiB).
 * Cell j is at x(j), `cell` ({ width, height, rx }) in size; `say(j, v)` is its tooltip, or null for none.
 */
function cellRow(parts, scale, data, offset, C, x, y, cell, i, say) {
  parts.push(openTag('g', { class: 'row', 'data-row': i, transform: `translate(0 ${y})` }));
  for (let j = 0; j < C; j++) {
    const v = data[offset + j];
    const tip = say && say(j, v);
    parts.push(
      el(
        'rect',
        { x: x(j), width: cell.width, height: cell.height, rx: cell.rx, fill: cellFill(scale, v), 'data-col': j, 'data-value': fullValue(v) },
        tip ? el('title', {}, escape(tip)) : '',
      ),
    );
  }
  parts.push('</g>');
}

/**
 * heatmapSvg({ data (Tq, Tk), Tq, Tk, rows, cols, title, titles }) -> { chunks, width, height } of the SVG:
 * web/figures' heatmapLayout() of the block (query rows, key columns, labelled axes, a colour bar).
 * `rows` and `cols` are the axes' tokens, or null for positions (0, 1, 2...).
 */
export function heatmapSvg({ data, Tq, Tk, rows: rowTokens = null, cols: colTokens = null, title = 'Attention weights', titles = true }) {
  const rowNames = shownTokens(rowTokens);
  const colNames = shownTokens(colTokens);
  const layout = heatmapLayout(
    { data, shape: [Tq, Tk] },
    { title, rowLabels: rowNames ?? undefined, colLabels: colNames ?? undefined, colorScale: scaleKind(data), lang: 'en' },
  );
  const { scale, cell, cellX, cellY } = layout;
  const parts = layout.texts.map(textMarkup);
  parts.push(barMarkup(layout.bar, 'attn-bar'));
  for (let i = 0; i < Tq; i++) {
    const say = titles && ((j, v) => `${cellPlace(rowNames, colNames, i, j)}: ${formatNumber(v)}`);
    cellRow(parts, scale, data, i * Tk, Tk, cellX, cellY(i), cell, i, say);
  }
  return svgRoot({ width: layout.width, height: layout.height, stage: 'weights', label: layout.name }, parts);
}

/**
 * headsSvg({ data (L, H, T, Tk), L, H, T, Tk, rows, cols, title, titles }) -> { chunks, width, height } of the SVG:
 * web/figures' headsLayout() of the block without its aggregates (a row per layer, labelled L0,
 * L1..., a column per head, H0, H1..., as BertViz lays them out, on one colour scale so that heads
 * compare by eye; heads() draws the same layout with canvases). Each map's cells are whole px
 * (at least 2, and maps about 120 px wide) drawn without gaps.
 * `rows` and `cols` are the axes' tokens (for the tooltips), or null.
 */
export function headsSvg({ data, L, H, T, Tk, rows: rowTokens = null, cols: colTokens = null, title = 'Attention heads', titles = true }) {
  const rows = shownTokens(rowTokens);
  const cols = shownTokens(colTokens);
  const size = Math.max(2, Math.floor(120 / Math.max(T, Tk)));
  const layout = headsLayout({ data, shape: [L, H, T, Tk] }, { title, aggregates: false, thumbSize: Tk * size, colorScale: scaleKind(data), lang: 'en' });
  const { scale, thumb } = layout;
  const cell = { width: thumb.width / Tk, height: thumb.height / T };
  const parts = layout.texts.map(textMarkup);
  parts.push(barMarkup(layout.bar, 'attn-bar'));
  for (const map of layout.maps) {
    parts.push(openTag('g', { class: 'panel', 'data-layer': map.layer, 'data-head': map.head }));
    for (let i = 0; i < T; i++) {
      const say = titles && ((j, v) => `${map.name}: ${cellPlace(rows, cols, i, j)}: ${formatNumber(v)}`);
      cellRow(parts, scale, map.data, map.offset + i * Tk, Tk, (j) => map.x + j * cell.width, map.y + i * cell.height, cell, i, say);
    }
    parts.push('</g>');
  }
  return svgRoot({ width: layout.width, height: layout.height, stage: 'heads', label: layout.name }, parts);
}
