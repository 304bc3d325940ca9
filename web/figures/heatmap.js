// heatmap(weights, options) -> SVGSVGElement, like d2l's show_heatmaps: query rows, key columns,
// labelled axes, a colour bar on [0, 1].
//
// weights: { data, shape } (Tq, Tk) or (B, Tq, Tk); batches are stacked as more rows.
// weights may also be nested arrays ((Tq, Tk) or (B, Tq, Tk)), as the API's tensors.
// options: stage ('weights'), title, colorScale ('weights': sequential on [0, 1], the default;
//   'signed': diverging around 0, for scores or gradients), rowLabels (Tq; default 0, 1, 2...), colLabels (Tk; default 0, 1, 2...), xlabel ('Keys'),
//   ylabel ('Queries'), lang ('en' or 'zh-CN': the default title, axis titles and cell names), batchLabel (b) -> prefix of row labels when B > 1 (default b0, b1...), masked (per element,
//   1 = masked: hatched), numbers (draw values, 2 decimals, in the cells; default false, as
//   d2l; a cell without its number drawn has a <title> tooltip instead; every cell has an
//   aria-label with the number shown and the exact value), cellSize, attrs.
// Cells carry data-batch, data-row, data-col, data-value and are keyboard navigable like matrix().
// Where everything goes (and every text) is heatmapLayout()'s (heatmap-layout.js), which the
// command line's static SVG files draw too.
import { figureMessage } from '../i18n/figure-text.js';
import { STRONG } from './color.js';
import { formatNumber, fullValue, spokenValue } from './format.js';
import { heatmapLayout } from './heatmap-layout.js';
import { rovingGrid } from './interact/roving.js';
import { hatchPattern, svg, uid } from './svg.js';

// The class of each text of the layout (figures.css colours them).
const TEXT_CLASS = { title: 'attn-title', axis: 'attn-axis', 'axis-title': 'attn-axis-title', legend: 'attn-legend-text' };

/** A text of a layout ({ role, text, attrs }: heatmapLayout's, headsLayout's) as an SVG <text>. */
export const layoutText = ({ role, text, attrs }) => svg('text', { ...attrs, class: TEXT_CLASS[role], 'aria-hidden': role === 'axis' ? 'true' : null }, [text]);

/** A layout's colour bar (vertical, as matplotlib's colorbar) -> [its gradient, its rect]. */
export function colorBarNodes(bar) {
  const gradientId = uid('attn-bar');
  return [
    svg(
      'linearGradient',
      { id: gradientId, x1: 0, y1: 1, x2: 0, y2: 0 },
      bar.stops.map(([offset, tone, t]) => svg('stop', { offset, class: `attn-stop ${tone}`, style: `--t: ${t}` })),
    ),
    svg('rect', { x: bar.x, y: bar.y, width: bar.width, height: bar.height, rx: bar.rx, fill: `url(#${gradientId})`, class: 'attn-legend-bar' }),
  ];
}

export function heatmap(input, options = {}) {
  const layout = heatmapLayout(input, options);
  const { weights, lang, B, R, C, rowLabels, colLabels, scale, tone, cell: tile, cellX, cellY } = layout;
  const say = (key, params) => figureMessage(lang, key, params);
  const { stage = 'weights', masked = null, attrs = {} } = options;
  // Like show_heatmaps, colour only by default; numbers (2 decimals) fit from 40 px cells on.
  const numbers = options.numbers ?? false;
  const hatch = masked && Array.from(masked).some(Boolean) ? hatchPattern() : null;

  const parts = layout.texts.map(layoutText);
  const grid = [];
  for (let r = 0; r < B * R; r++) {
    const b = Math.floor(r / R);
    const i = r % R;
    const cells = [];
    const row = svg('g', { role: 'row' });
    for (let j = 0; j < C; j++) {
      const k = r * C + j;
      const value = weights.data[k];
      const off = Boolean(masked && masked[k]);
      const kind = off ? 'masked' : tone(value);
      const t = kind === 'masked' || kind === 'nan' ? 0 : scale.t(value);
      const shown = numbers ? value.toFixed(2) : formatNumber(value);
      // The accessible name holds all the cell's visible text (Label in Name; axe counts an SVG
      // <title> as visible): the drawn number, or else the tooltip, which is the name without
      // the exact value. A cell with its number drawn needs no tooltip.
      const name = (value) => {
        const said = say('figure.heatmap.cell', { row: rowLabels[r], col: colLabels[j], value });
        return off ? say('figure.masked-name', { name: said }) : said;
      };
      const said = name(shown);
      const cell = svg(
        'g',
        {
          class: `cell ${kind}${t > STRONG ? ' strong' : ''}`,
          role: 'gridcell',
          transform: `translate(${cellX(j)} ${cellY(r)})`,
          style: `--t: ${t.toFixed(3)}`,
          'data-batch': b,
          'data-row': i,
          'data-col': j,
          'data-value': fullValue(value),
          'aria-label': name(spokenValue(value, shown, lang)),
        },
        [
          ...(numbers ? [] : [svg('title', {}, [said])]),
          svg('rect', { class: 'tile', ...tile, fill: off ? `url(#${hatch.id})` : null }),
          ...(numbers
            ? [svg('text', { class: 'num', x: tile.width / 2, y: tile.height / 2, dy: '0.35em', 'text-anchor': 'middle', 'font-size': 9.5 }, [shown])]
            : []),
        ],
      );
      row.append(cell);
      cells.push(cell);
    }
    parts.push(row);
    grid.push(cells);
  }
  parts.push(...colorBarNodes(layout.bar));
  const { width, height } = layout;
  const root = svg(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      class: 'attn-figure attn-heatmap',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'grid',
      'aria-label': layout.name,
      'data-stage': stage,
      ...attrs,
    },
    [svg('defs', {}, hatch ? [hatch.node] : []), ...parts],
  );
  rovingGrid(root, grid);
  return root;
}
