// matrix(tensor, options) -> SVGSVGElement: a matrix (or a stack of them, one per batch) with its
// numbers on a colour scale, bracketed like in a textbook.
//
// tensor: { data, shape } or nested arrays, of shape (R, C), (B, R, C), or (C) drawn as one row.
// options:
//   stage        data-stage of the root ('q', 'weights', ...): the testable name
//   title        accessible name of the figure ('Q, the queries')
//   colorScale   'signed' (diverging around 0, the default) or 'weights' (sequential on [0, 1]), as heatmap()'s
//   rowLabels, colLabels   labels of the rows / columns of each block (e.g. tokens)
//   batchLabel   (b) -> label above block b when B > 1 (default 'batch b', counted from 0)
//   masked       per-element flags (1 = masked), drawn hatched and muted: never mistaken for 0
//   cellLabel    (b, i, j, value, shown) -> the aria-label of a cell (default: position, the number shown
//                and the exact value, format.js spokenValue)
//   attrs        extra attributes of the root (e.g. { 'data-head': 0 })
//   editable     marks cells as editable (the page handles 'attn-cell-activate')
//   legend       draw the colour legend under the matrix (default true)
//   lang         'en' (the default) or 'zh-CN': the default cell names and the legend's words
//
// Every cell is a focusable <g role="gridcell"> with data-batch, data-row, data-col and
// data-value (String(value), full float32 precision); the root has data-stage. Arrow keys move
// between cells (roving.js); Enter/Space/click dispatch 'attn-cell-activate'.
import { refuseRenamed } from '../src/boundary/renamed.js';
import { toTensor } from '../src/to-tensor.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { STRONG, colorScale } from './color.js';
import { formatMatrix, fullValue, spokenValue } from './format.js';
import { legend } from './legend.js';
import { rovingGrid } from './interact/roving.js';
import { hatchPattern, svg, widestText } from './svg.js';

const CELL = { height: 28, gap: 3, minWidth: 40, pad: 16, font: 12.5 };
const LABEL_FONT = 11.5;
const BRACKET = 7;
const BLOCK_GAP = 14;

function shapeOf(tensor) {
  const s = tensor.shape;
  if (s.length === 1) return [1, 1, s[0]];
  const [R, C] = s.slice(-2);
  return [tensor.data.length / (R * C) || 1, R, C];
}

function truncate(label, width) {
  const text = String(label);
  const fits = Math.max(1, Math.floor(width / (LABEL_FONT * 0.6)));
  return text.length <= fits ? text : `${text.slice(0, Math.max(1, fits - 1))}…`;
}

function bracketPath(x, y, height, side) {
  const d = side === 'left' ? BRACKET - 2 : -(BRACKET - 2);
  return `M${x + d} ${y} H${x} V${y + height} H${x + d}`;
}

export function matrix(input, options = {}) {
  const tensor = toTensor(input, 'matrix: tensor');
  refuseRenamed('matrix', options, { kind: 'colorScale' });
  const {
    stage = 'matrix',
    title = stage,
    colorScale: scaleKind = 'signed',
    rowLabels = null,
    colLabels = null,
    masked = null,
    attrs = {},
    editable = false,
    legend: withLegend = true,
  } = options;
  const lang = langOption(options.lang, 'matrix');
  const say = (key, params) => figureMessage(lang, key, params);
  const [B, R, C] = shapeOf(tensor);
  const batchLabel = options.batchLabel ?? ((b) => say('figure.cell.batch', { batch: b }));
  const cellLabel =
    options.cellLabel ??
    ((b, i, j, v, shown) =>
      `${[title, ...(B > 1 ? [batchLabel(b)] : []), say('figure.cell.row', { row: i + 1 }), say('figure.cell.col', { col: j + 1 })].join(', ')}: ${spokenValue(v, shown, lang)}`);
  const isMasked = (k) => Boolean(masked && masked[k]);
  const scale = colorScale(scaleKind, tensor.data, (k) => !isMasked(k));
  const texts = formatMatrix(tensor.data);

  // Wide enough for the longest number, and for column labels up to ~9 characters.
  const labelNeed = colLabels ? Math.min(64, Math.ceil(widestText(colLabels, LABEL_FONT)) + 6) : 0;
  const cellW = Math.max(CELL.minWidth, labelNeed, Math.ceil(widestText(texts, CELL.font)) + CELL.pad);
  const labelW = rowLabels ? Math.min(96, Math.ceil(widestText(rowLabels, LABEL_FONT)) + 14) : 0;
  const headH = colLabels ? 20 : 0;
  const batchH = B > 1 ? 20 : 0;
  const blockW = C * cellW + (C - 1) * CELL.gap;
  const blockH = R * CELL.height + (R - 1) * CELL.gap;
  const x0 = labelW + BRACKET + 3;
  const hatch = masked && Array.from(masked).some(Boolean) ? hatchPattern() : null;

  const defs = svg('defs', {}, hatch ? [hatch.node] : []);
  const body = svg('g', { class: 'attn-body' });
  const grid = [];
  let y = headH;
  if (colLabels) {
    body.append(
      svg(
        'g',
        { class: 'attn-col-labels', 'aria-hidden': 'true' },
        colLabels.map((label, j) =>
          svg('text', { x: x0 + j * (cellW + CELL.gap) + cellW / 2, y: headH - 7, 'text-anchor': 'middle', class: 'attn-axis', 'font-size': LABEL_FONT }, [
            truncate(label, cellW),
          ]),
        ),
      ),
    );
  }
  for (let b = 0; b < B; b++) {
    if (B > 1) {
      body.append(svg('text', { x: x0, y: y + 13, class: 'attn-batch-label', 'font-size': LABEL_FONT }, [batchLabel(b)]));
      y += batchH;
    }
    body.append(
      svg('path', { d: bracketPath(x0 - BRACKET - 1, y - 1, blockH + 2, 'left'), class: 'attn-bracket' }),
      svg('path', { d: bracketPath(x0 + blockW + BRACKET + 1, y - 1, blockH + 2, 'right'), class: 'attn-bracket' }),
    );
    for (let i = 0; i < R; i++) {
      const cy = y + i * (CELL.height + CELL.gap);
      if (rowLabels) {
        body.append(
          svg(
            'text',
            { x: labelW - 6, y: cy + CELL.height / 2, dy: '0.35em', 'text-anchor': 'end', class: 'attn-axis', 'font-size': LABEL_FONT, 'aria-hidden': 'true' },
            [truncate(rowLabels[i] ?? '', labelW - 8)],
          ),
        );
      }
      const row = svg('g', { role: 'row' });
      const cells = [];
      for (let j = 0; j < C; j++) {
        const k = (b * R + i) * C + j;
        const value = tensor.data[k];
        const off = isMasked(k);
        const t = off ? 0 : scale.t(value);
        const cell = svg(
          'g',
          {
            class: `cell ${off ? 'masked' : scale.tone(value)}${t > STRONG ? ' strong' : ''}${editable ? ' editable' : ''}`,
            role: 'gridcell',
            transform: `translate(${x0 + j * (cellW + CELL.gap)} ${cy})`,
            style: `--t: ${t.toFixed(3)}`,
            'data-batch': b,
            'data-row': i,
            'data-col': j,
            'data-value': fullValue(value),
            'aria-label': off ? say('figure.masked-name', { name: cellLabel(b, i, j, value, texts[k]) }) : cellLabel(b, i, j, value, texts[k]),
            'aria-readonly': editable ? 'false' : null,
          },
          [
            svg('rect', { class: 'tile', width: cellW, height: CELL.height, rx: 5, fill: off ? `url(#${hatch.id})` : null }),
            svg('text', { class: 'num', x: cellW / 2, y: CELL.height / 2, dy: '0.35em', 'text-anchor': 'middle', 'font-size': CELL.font }, [texts[k]]),
          ],
        );
        row.append(cell);
        cells.push(cell);
      }
      body.append(row);
      grid.push(cells);
    }
    y += blockH + (b < B - 1 ? BLOCK_GAP : 0);
  }

  let width = x0 + blockW + BRACKET + 3;
  let height = y + 4;
  if (withLegend) {
    const key = legend(scale, { x: x0, y: height + 12, hatchId: hatch?.id, lang });
    body.append(key.node);
    width = Math.max(width, x0 + key.width + 4);
    height += 12 + key.height;
  }
  const root = svg(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      class: `attn-figure attn-matrix kind-${scale.kind}`,
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'grid',
      'aria-label': `${title}: ${B > 1 ? `${B} × ` : ''}${R} × ${C}`,
      'data-stage': stage,
      'data-rows': R,
      'data-cols': C,
      'data-batches': B,
      ...attrs,
    },
    [defs, body],
  );
  rovingGrid(root, grid);
  return root;
}
