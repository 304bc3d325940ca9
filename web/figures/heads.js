// heads(attentions, options) -> HTMLDivElement[data-stage=heads]: the model view, BertViz's grid of
// maps as canvases placed where headsLayout() (heads-layout.js: shapes, options, labels) says, over
// an SVG of its texts and colour bar. A canvas has data-layer (0.. or 'mean') and data-head (0..,
// 'mean' or 'max') and is a button: click, Enter or Space enlarges it into [data-role=detail] (SVG
// cells with data-row/data-col/data-value while T <= 64, a canvas beyond). Hovering a map sets
// [data-role=readout] to the exact value (data-layer, data-head, data-row, data-col, data-value).
// Tokens are buttons [data-token=i]: selecting some highlights their rows and columns everywhere
// (aria-pressed; root data-selected="i j").
import { figureMessage } from '../i18n/figure-text.js';
import { canvasHeatmap, cellAt, paintWeights, showValue } from './canvas-map.js';
import { h } from './dom.js';
import { headsLayout } from './heads-layout.js';
import { colorBarNodes, heatmap, layoutText } from './heatmap.js';
import { svg } from './svg.js';

const SVG_LIMIT = 64; // the largest T whose enlarged map is SVG cells (4,096 of them)

export function heads(input, options = {}) {
  const layout = headsLayout(input, options);
  const { lang, L, H, T, Tk, rowLabels, colLabels, scale, thumb } = layout;
  const size = T * Tk;
  const say = (key, params) => figureMessage(lang, key, params);

  // Each map: a canvas at its place in the layout, with where its T x Tk weights live and its name.
  const maps = layout.maps.map(({ layer, head, data, offset, name, x, y }) => {
    const canvas = h('canvas', {
      class: 'attn-thumb',
      tabindex: '0',
      role: 'button',
      'aria-pressed': 'false',
      'aria-label': say('figure.heads.enlarge', { name }),
      title: name,
      dataset: { layer: String(layer), head: String(head) },
      // An outline, not a border: the canvas covers exactly the layout's box.
      style: `position:absolute;left:${x}px;top:${y}px;width:${thumb.width}px;height:${thumb.height}px;image-rendering:pixelated;cursor:pointer;outline:1px solid var(--attn-grid, #d4d4d8)`,
    });
    return { canvas, data, offset, name, layer, head };
  });
  const { width, height } = layout;
  const frame = svg(
    'svg',
    { class: 'attn-heads-frame', width, height, viewBox: `0 0 ${width} ${height}`, 'aria-hidden': 'true', style: 'position:absolute;left:0;top:0' },
    [...layout.texts.map(layoutText), ...colorBarNodes(layout.bar)],
  );
  const grid = h('div', {
    class: 'attn-heads-grid',
    role: 'group',
    'aria-label': say('figure.heads.grid', { layers: L, heads: H }),
    style: `position:relative;width:${width}px;height:${height}px`,
  });
  grid.append(frame, ...maps.map((m) => m.canvas));

  const readout = h(
    'p',
    {
      class: 'attn-readout',
      'aria-live': 'polite',
      dataset: { role: 'readout' },
      style: 'font-size:12px;min-height:1.4em;margin:4px 0',
    },
    say('figure.heads.hint'),
  );
  const detail = h('div', { class: 'attn-heads-detail', dataset: { role: 'detail' } });
  const selected = new Set();
  let current = null;

  const paintAll = () => {
    for (const m of maps) paintWeights(m.canvas, m.data, m.offset, T, Tk, selected, { scale });
  };
  const enlarge = (entry) => {
    if (current) current.canvas.setAttribute('aria-pressed', 'false');
    current = entry;
    entry.canvas.setAttribute('aria-pressed', 'true');
    detail.dataset.layer = String(entry.layer);
    detail.dataset.head = String(entry.head);
    const weights = { data: entry.data.subarray(entry.offset, entry.offset + size), shape: [T, Tk] };
    const figure =
      T <= SVG_LIMIT && Tk <= SVG_LIMIT
        ? heatmap(weights, {
            title: entry.name,
            lang,
            colorScale: scale.kind,
            rowLabels: rowLabels ?? undefined,
            colLabels: colLabels ?? undefined,
            attrs: { 'data-layer': entry.layer, 'data-head': entry.head },
          })
        : canvasHeatmap(weights, { title: entry.name, lang, rowLabels, colLabels, highlight: selected, colorScale: scale.kind });
    detail.replaceChildren(figure);
    markSelection();
  };
  const markSelection = () => {
    for (const cell of detail.querySelectorAll('[data-row][data-col]')) {
      const on = selected.has(Number(cell.dataset.row)) || selected.has(Number(cell.dataset.col));
      cell.classList.toggle('selected', selected.size > 0 && on);
      cell.style.opacity = selected.size > 0 && !on ? '0.3' : '';
    }
  };

  grid.addEventListener('pointermove', (event) => {
    const entry = maps.find((m) => m.canvas === event.target);
    if (!entry) return;
    const at = cellAt(event, entry.canvas, T, Tk);
    if (!at) return;
    readout.dataset.layer = String(entry.layer);
    readout.dataset.head = String(entry.head);
    showValue(
      readout,
      say('figure.heads.where', { name: entry.name }),
      at[0],
      at[1],
      entry.data[entry.offset + at[0] * Tk + at[1]],
      rowLabels,
      colLabels,
      lang,
    );
  });
  const activate = (event) => {
    const entry = maps.find((m) => m.canvas === event.target);
    if (entry && (event.type === 'click' || event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      enlarge(entry);
    }
  };
  grid.addEventListener('click', activate);
  grid.addEventListener('keydown', activate);

  const root = h('div', {
    class: 'attn-figure attn-heads',
    role: 'figure',
    'aria-label': layout.name,
    dataset: { stage: 'heads', layers: String(L), heads: String(H), rows: String(T), cols: String(Tk) },
  });
  // The grid scrolls sideways when it is wider than the page.
  root.append(h('div', { style: 'overflow-x:auto;max-width:100%' }, grid));
  if (rowLabels || colLabels) {
    const labels = rowLabels ?? colLabels;
    const strip = h('div', {
      class: 'attn-tokens',
      role: 'group',
      'aria-label': say('figure.heads.tokens'),
      style: 'display:flex;flex-wrap:wrap;gap:2px;margin-bottom:6px;max-height:6em;overflow:auto',
    });
    labels.forEach((text, i) => {
      const button = h(
        'button',
        {
          type: 'button',
          'aria-pressed': 'false',
          dataset: { token: String(i) },
          title: say('figure.heads.token', { index: i }),
          style: 'font:inherit;font-size:11px;padding:0 4px',
        },
        text,
      );
      button.addEventListener('click', () => {
        if (selected.has(i)) selected.delete(i);
        else selected.add(i);
        button.setAttribute('aria-pressed', String(selected.has(i)));
        root.dataset.selected = [...selected].sort((a, b) => a - b).join(' ');
        paintAll();
        if (current && !(T <= SVG_LIMIT && Tk <= SVG_LIMIT)) enlarge(current);
        else markSelection();
      });
      strip.append(button);
    });
    root.append(strip);
  }
  root.append(readout, detail);
  paintAll();
  return root;
}
