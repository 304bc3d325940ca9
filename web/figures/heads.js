// heads(attentions, options) -> HTMLDivElement[data-stage=heads]: the model view. One canvas
// thumbnail per layer and head, with aggregates, for attentions of shape (L, H, T, Tk), (H, T, Tk)
// or BertViz's list of per-layer (1, H, T, Tk) (nested arrays or tensors).
//
// Layout, as BertViz's model view: a row per layer, then a last row for the mean over layers; a
// column per head, then a column for the mean and one for the max over heads. Layers and heads are
// counted from 0 in every label, as PyTorch indexes them. Every thumbnail is a canvas with
// data-layer (0.. or 'mean') and data-head (0.., 'mean' or 'max'), focusable, a button:
// click (or Enter/Space) enlarges it into [data-role=detail] (the SVG heatmap with its
// data-row/data-col/data-value cells while T <= 64, a canvas beyond). Hovering any map sets the
// readout [data-role=readout] to the exact value (data-layer, data-head, data-row, data-col,
// data-value). Tokens are buttons [data-token=i]: selecting some highlights their rows and
// columns everywhere (aria-pressed; root data-selected="i j").
// Options: rowLabels (the T queries), colLabels (the Tk keys; default rowLabels when Tk = T), layers, heads (the indices to show),
// aggregates (default true), thumbSize (CSS px, default 64), title, lang ('en' or 'zh-CN': its words).
import { toAttentions } from '../model/attentions.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { refuseRenamed } from '../src/boundary/renamed.js';
import { canvasHeatmap, cellAt, paintWeights, showValue } from './canvas-map.js';
import { h } from './dom.js';
import { heatmap } from './heatmap.js';

const SVG_LIMIT = 64; // the largest T whose enlarged map is SVG cells (4,096 of them)

/** Mean and max over heads per layer, mean over layers per head, and the two corners. */
function aggregates(data, L, H, size) {
  const meanHeads = new Float32Array(L * size);
  const maxHeads = new Float32Array(L * size).fill(-Infinity);
  const meanLayers = new Float32Array(H * size);
  for (let l = 0; l < L; l++) {
    for (let h = 0; h < H; h++) {
      const at = (l * H + h) * size;
      for (let k = 0; k < size; k++) {
        const v = data[at + k];
        meanHeads[l * size + k] += v / H;
        if (v > maxHeads[l * size + k]) maxHeads[l * size + k] = v;
        meanLayers[h * size + k] += v / L;
      }
    }
  }
  const meanAll = new Float32Array(size);
  const maxMean = new Float32Array(size);
  for (let l = 0; l < L; l++) {
    for (let k = 0; k < size; k++) {
      meanAll[k] += meanHeads[l * size + k] / L;
      maxMean[k] += maxHeads[l * size + k] / L;
    }
  }
  return { meanHeads, maxHeads, meanLayers, meanAll, maxMean };
}

/** Labels given as `name`: null, or a list of exactly n (the size `letter`) -> strings. */
function labelsOf(given, n, name, letter) {
  if (given === undefined || given === null) return null;
  if (!Array.isArray(given) || given.length !== n) {
    throw new RangeError(`heads: ${name} must be a list of ${n} labels (${letter}), got ${Array.isArray(given) ? given.length : typeof given}`);
  }
  return given.map(String);
}

function pickIndices(given, n, name) {
  if (given === undefined || given === null) return Array.from({ length: n }, (_, i) => i);
  if (!Array.isArray(given) || given.some((i) => !Number.isInteger(i) || i < 0 || i >= n)) {
    throw new RangeError(`heads: ${name} must be a list of indices in 0..${n - 1}, got ${JSON.stringify(given)}`);
  }
  return given;
}

export function heads(input, options = {}) {
  const att = toAttentions(input);
  const [L, H, T, Tk] = att.shape;
  const size = T * Tk;
  const lang = langOption(options.lang, 'heads');
  const say = (key, params) => figureMessage(lang, key, params);
  const { title = say('figure.heads.title'), aggregates: showAggregates = true } = options;
  const thumb = options.thumbSize ?? 64;
  refuseRenamed('heads', options, { tokens: ['rowLabels', 'colLabels'] });
  const rowLabels = labelsOf(options.rowLabels, T, 'rowLabels', 'T');
  const colLabels = labelsOf(options.colLabels, Tk, 'colLabels', 'Tk') ?? (Tk === T ? rowLabels : null);
  const layers = pickIndices(options.layers, L, 'layers');
  const headIndices = pickIndices(options.heads, H, 'heads');
  const agg = showAggregates ? aggregates(att.data, L, H, size) : null;

  // Each map: where its T x Tk weights live, and how it is named.
  const maps = [];
  const map = (layer, head, data, offset, name) => {
    const canvas = h('canvas', {
      class: 'attn-thumb',
      tabindex: '0',
      role: 'button',
      'aria-pressed': 'false',
      'aria-label': say('figure.heads.enlarge', { name }),
      title: name,
      dataset: { layer: String(layer), head: String(head) },
      style: `width:${thumb}px;height:${Math.round((thumb * T) / Tk)}px;image-rendering:pixelated;cursor:pointer;border:1px solid var(--attn-grid, #d4d4d8);display:block`,
    });
    const entry = { canvas, data, offset, name, layer, head };
    maps.push(entry);
    return canvas;
  };
  const label = (text, extra = '') => h('div', { class: 'attn-axis', style: `font-size:11px;align-self:center;${extra}` }, text);

  // Grid, as BertViz's model view: a row per layer (its label first), a column per head, then the
  // mean and the max over heads; a last row for the mean over layers. Layers and heads are counted
  // from 0, as PyTorch indexes them and as the index attributes and flags take them.
  const columns = headIndices.length + (agg ? 2 : 0);
  const grid = h('div', {
    class: 'attn-heads-grid',
    role: 'group',
    'aria-label': say('figure.heads.grid', { layers: L, heads: H }),
    style: `display:grid;grid-template-columns:auto repeat(${columns}, ${thumb}px);gap:4px;align-items:center;justify-content:start;overflow-x:auto;max-width:100%`,
  });
  grid.append(h('div'));
  for (const h of headIndices) grid.append(label(say('figure.heads.head-short', { head: h }), 'text-align:center'));
  if (agg) grid.append(label(say('figure.heads.mean'), 'text-align:center'), label(say('figure.heads.max'), 'text-align:center'));
  for (const l of layers) {
    grid.append(label(say('figure.heads.layer-short', { layer: l })));
    for (const h of headIndices) grid.append(map(l, h, att.data, (l * H + h) * size, say('figure.heads.map', { layer: l, head: h })));
    if (agg) {
      grid.append(map(l, 'mean', agg.meanHeads, l * size, say('figure.heads.layer-mean', { layer: l })));
      grid.append(map(l, 'max', agg.maxHeads, l * size, say('figure.heads.layer-max', { layer: l })));
    }
  }
  if (agg) {
    grid.append(label(say('figure.heads.mean')));
    for (const h of headIndices) grid.append(map('mean', h, agg.meanLayers, h * size, say('figure.heads.head-mean', { head: h })));
    grid.append(map('mean', 'mean', agg.meanAll, 0, say('figure.heads.mean-mean')));
    grid.append(map('mean', 'max', agg.maxMean, 0, say('figure.heads.max-mean')));
  }

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
    for (const m of maps) paintWeights(m.canvas, m.data, m.offset, T, Tk, selected);
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
            rowLabels: rowLabels ?? undefined,
            colLabels: colLabels ?? undefined,
            attrs: { 'data-layer': entry.layer, 'data-head': entry.head },
          })
        : canvasHeatmap(weights, { title: entry.name, lang, rowLabels, colLabels, highlight: selected });
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
    'aria-label': say('figure.heads.name', { title, layers: L, heads: H, rows: T, cols: Tk }),
    dataset: { stage: 'heads', layers: String(L), heads: String(H), rows: String(T), cols: String(Tk) },
  });
  if (title) root.append(h('p', { class: 'attn-title', style: 'font-size:12.5px;margin:0 0 6px' }, title));
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
  root.append(grid, readout, detail);
  paintAll();
  return root;
}
