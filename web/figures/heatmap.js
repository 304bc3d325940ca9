// heatmap(weights, options) -> SVGSVGElement, like d2l's show_heatmaps: query rows, key columns,
// labelled axes, a colour bar on [0, 1].
//
// weights: { data, shape } (Tq, Tk) or (B, Tq, Tk); batches are stacked as more rows.
// weights may also be nested arrays ((Tq, Tk) or (B, Tq, Tk)), as the API's tensors.
// options: stage ('weights'), title, colorScale ('weights': sequential on [0, 1], the default;
//   'signed': diverging around 0, for scores or gradients), rowLabels (Tq), colLabels (Tk), xlabel ('Keys'),
//   ylabel ('Queries'), lang ('en' or 'zh-CN': the default title, axis titles and cell names), batchLabel (b) -> prefix of row labels when B > 1, masked (per element,
//   1 = masked: hatched), numbers (draw values, 2 decimals, in the cells; default false, as
//   d2l; a cell without its number drawn has a <title> tooltip instead; every cell has an
//   aria-label with the number shown and the exact value), cellSize, attrs.
// Cells carry data-batch, data-row, data-col, data-value and are keyboard navigable like matrix().
import { toTensor } from '../src/to-tensor.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { STRONG, colorScale, gradientStops } from './color.js';
import { formatNumber, fullValue, spokenValue } from './format.js';
import { rovingGrid } from './interact/roving.js';
import { hatchPattern, svg, uid, widestText } from './svg.js';

const FONT = 11;

function stackShape(t) {
  const [R, C] = t.shape.length === 1 ? [1, t.shape[0]] : t.shape.slice(-2);
  return [t.data.length / (R * C) || 1, R, C];
}

export function heatmap(input, options = {}) {
  const weights = toTensor(input, 'heatmap: weights');
  const lang = langOption(options.lang, 'heatmap');
  const say = (key, params) => figureMessage(lang, key, params);
  const { stage = 'weights', masked = null, attrs = {} } = options;
  const { title = say('figure.heatmap.title'), xlabel = say('figure.heatmap.xlabel'), ylabel = say('figure.heatmap.ylabel') } = options;
  const [B, R, C] = stackShape(weights);
  const colLabels = options.colLabels ?? Array.from({ length: C }, (_, j) => String(j + 1));
  const baseRows = options.rowLabels ?? Array.from({ length: R }, (_, i) => String(i + 1));
  const batchLabel = options.batchLabel ?? ((b) => `b${b + 1}`);
  const rowLabels = Array.from({ length: B * R }, (_, r) => (B > 1 ? `${batchLabel(Math.floor(r / R))} · ` : '') + baseRows[r % R]);
  const size = options.cellSize ?? Math.max(14, Math.min(40, Math.floor(400 / Math.max(C, B * R))));
  // Like show_heatmaps, colour only by default; numbers (2 decimals) fit from 40 px cells on.
  const numbers = options.numbers ?? false;
  const kind = options.colorScale ?? 'weights';
  if (kind !== 'weights' && kind !== 'signed') throw new TypeError(`heatmap: colorScale must be 'weights' or 'signed', got ${JSON.stringify(kind)}`);
  const scale = colorScale(kind, weights.data, (k) => !(masked && masked[k]));
  const hatch = masked && Array.from(masked).some(Boolean) ? hatchPattern() : null;

  const labelW = Math.ceil(widestText(rowLabels, FONT)) + 10;
  const longest = widestText(colLabels, FONT);
  const slanted = longest > size - 2;
  const tickH = slanted ? Math.ceil(longest * 0.72) + 10 : 16;
  const x0 = 20 + labelW;
  const y0 = title ? 24 : 6;
  const gridW = C * size;
  const gridH = B * R * size;

  const parts = [];
  if (title) parts.push(svg('text', { x: x0, y: 15, class: 'attn-title', 'font-size': 12.5 }, [title]));
  const grid = [];
  for (let r = 0; r < B * R; r++) {
    const b = Math.floor(r / R);
    const i = r % R;
    parts.push(
      svg(
        'text',
        { x: x0 - 6, y: y0 + r * size + size / 2, dy: '0.35em', 'text-anchor': 'end', class: 'attn-axis', 'font-size': FONT, 'aria-hidden': 'true' },
        [rowLabels[r]],
      ),
    );
    const cells = [];
    const row = svg('g', { role: 'row' });
    for (let j = 0; j < C; j++) {
      const k = r * C + j;
      const value = weights.data[k];
      const off = Boolean(masked && masked[k]);
      const t = off ? 0 : scale.t(value);
      const shown = numbers ? value.toFixed(2) : formatNumber(value);
      // The accessible name holds all the cell's visible text (Label in Name; axe counts an SVG
      // <title> as visible): the drawn number, or else the tooltip, which is the name without
      // the exact value. A cell with its number drawn needs no tooltip.
      const name = (value) => say('figure.heatmap.cell', { row: rowLabels[r], col: colLabels[j], value }) + (off ? ` ${say('figure.masked')}` : '');
      const said = name(shown);
      const cell = svg(
        'g',
        {
          class: `cell ${off ? 'masked' : scale.tone(value)}${t > STRONG ? ' strong' : ''}`,
          role: 'gridcell',
          transform: `translate(${x0 + j * size} ${y0 + r * size})`,
          style: `--t: ${t.toFixed(3)}`,
          'data-batch': b,
          'data-row': i,
          'data-col': j,
          'data-value': fullValue(value),
          'aria-label': name(spokenValue(value, shown, lang)),
        },
        [
          ...(numbers ? [] : [svg('title', {}, [said])]),
          svg('rect', { class: 'tile', width: size - 1, height: size - 1, rx: 2, fill: off ? `url(#${hatch.id})` : null }),
          ...(numbers
            ? [svg('text', { class: 'num', x: (size - 1) / 2, y: (size - 1) / 2, dy: '0.35em', 'text-anchor': 'middle', 'font-size': 9.5 }, [shown])]
            : []),
        ],
      );
      row.append(cell);
      cells.push(cell);
    }
    parts.push(row);
    grid.push(cells);
  }
  const tickY = y0 + gridH + 6;
  colLabels.forEach((label, j) => {
    const x = x0 + j * size + size / 2;
    parts.push(
      slanted
        ? svg(
            'text',
            { x, y: tickY + 4, 'text-anchor': 'end', transform: `rotate(-40 ${x} ${tickY + 4})`, class: 'attn-axis', 'font-size': FONT, 'aria-hidden': 'true' },
            [label],
          )
        : svg('text', { x, y: tickY + 9, 'text-anchor': 'middle', class: 'attn-axis', 'font-size': FONT, 'aria-hidden': 'true' }, [label]),
    );
  });
  const xlabelY = tickY + tickH + 10;
  parts.push(
    svg('text', { x: x0 + gridW / 2, y: xlabelY, 'text-anchor': 'middle', class: 'attn-axis-title', 'font-size': FONT + 0.5 }, [xlabel]),
    svg(
      'text',
      { x: 0, y: 0, transform: `translate(11 ${y0 + gridH / 2}) rotate(-90)`, 'text-anchor': 'middle', class: 'attn-axis-title', 'font-size': FONT + 0.5 },
      [ylabel],
    ),
  );
  // Colour bar, vertical as in matplotlib's colorbar.
  const barX = x0 + gridW + 14;
  const barH = Math.max(60, gridH);
  const gradientId = uid('attn-bar');
  parts.push(
    svg(
      'linearGradient',
      { id: gradientId, x1: 0, y1: 1, x2: 0, y2: 0 },
      gradientStops(scale).map(([offset, tone, t]) => svg('stop', { offset, class: `attn-stop ${tone}`, style: `--t: ${t}` })),
    ),
    svg('rect', { x: barX, y: y0, width: 9, height: barH, rx: 3, fill: `url(#${gradientId})`, class: 'attn-legend-bar' }),
    ...[
      [scale.max, 0],
      [(scale.min + scale.max) / 2, 0.5],
      [scale.min, 1],
    ].map(([v, f]) => svg('text', { x: barX + 14, y: y0 + f * barH, dy: '0.35em', class: 'attn-legend-text', 'font-size': 10 }, [formatNumber(v)])),
  );
  const width = barX + 36;
  const height = Math.max(xlabelY + 6, y0 + barH + 6);
  const root = svg(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      class: 'attn-figure attn-heatmap',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'grid',
      'aria-label': say('figure.heatmap.name', { title, rows: B * R, cols: C }),
      'data-stage': stage,
      ...attrs,
    },
    [svg('defs', {}, hatch ? [hatch.node] : []), ...parts],
  );
  rovingGrid(root, grid);
  return root;
}
