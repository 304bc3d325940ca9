// headsLayout(attentions, options) -> the model view as drawn, without drawing it: heads() places
// its canvases where it says, the command line (cli/figure-svg.js) writes it as text. No DOM here.
// attentions: (L, H, T, Tk), (H, T, Tk) or BertViz's list of per-layer (1, H, T, Tk).
// options: rowLabels, colLabels (default rowLabels when Tk = T), layers, heads (indices to show),
// aggregates (default true), thumbSize (px, default 64), title, colorScale, lang.
// As BertViz's model view: a row per layer, then one for the mean over layers; a column per head,
// then the mean and the max over heads; layers and heads counted from 0, as PyTorch indexes them.
// -> { attentions ((L, H, T, Tk)), lang, L, H, T, Tk, rowLabels, colLabels (or null), scale (one
//   for every map), thumb { width, height }, maps: [{ layer, head, data, offset (its T x Tk
//   weights), name, x, y }] row by row, texts and bar (as heatmapLayout's), name, width, height }
import { toAttentions } from '../model/attentions.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { refuseRenamed } from '../src/boundary/renamed.js';
import { colorScale } from './color.js';
import { colorBarLayout } from './heatmap-layout.js';
import { widestText } from './svg.js';

const FONT = 11;
const GAP = 6; // px between maps

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

const text = (role, value, attrs) => ({ role, text: value, attrs });

export function headsLayout(input, options = {}) {
  const attentions = toAttentions(input);
  const [L, H, T, Tk] = attentions.shape;
  const size = T * Tk;
  const lang = langOption(options.lang, 'heads');
  const say = (key, params) => figureMessage(lang, key, params);
  refuseRenamed('heads', options, { tokens: ['rowLabels', 'colLabels'] });
  const { title = say('figure.heads.title') } = options;
  const rowLabels = labelsOf(options.rowLabels, T, 'rowLabels', 'T');
  const colLabels = labelsOf(options.colLabels, Tk, 'colLabels', 'Tk') ?? (Tk === T ? rowLabels : null);
  const layers = pickIndices(options.layers, L, 'layers');
  const headIndices = pickIndices(options.heads, H, 'heads');
  const kind = options.colorScale ?? 'weights';
  if (kind !== 'weights' && kind !== 'signed') throw new TypeError(`heads: colorScale must be 'weights' or 'signed', got ${JSON.stringify(kind)}`);
  const width = options.thumbSize ?? 64;
  if (!(width > 0 && width < Infinity)) throw new RangeError(`heads: thumbSize must be a positive number of px, got ${width}`);
  const thumb = { width, height: Math.round((width * T) / Tk) };
  const agg = (options.aggregates ?? true) ? aggregates(attentions.data, L, H, size) : null;

  const mean = say('figure.heads.mean');
  const columns = headIndices.map((h) => ({ label: say('figure.heads.head-short', { head: h }), head: h }));
  if (agg) columns.push({ label: mean, head: 'mean' }, { label: say('figure.heads.max'), head: 'max' });
  const rows = layers.map((l) => ({ label: say('figure.heads.layer-short', { layer: l }), layer: l }));
  if (agg) rows.push({ label: mean, layer: 'mean' });
  // Each map's weights and name: a head's in the attentions, an aggregate's in agg.
  const source = (l, h) => {
    if (l !== 'mean' && h === 'mean') return [agg.meanHeads, l * size, say('figure.heads.layer-mean', { layer: l })];
    if (l !== 'mean' && h === 'max') return [agg.maxHeads, l * size, say('figure.heads.layer-max', { layer: l })];
    if (l !== 'mean') return [attentions.data, (l * H + h) * size, say('figure.heads.map', { layer: l, head: h })];
    if (h === 'mean') return [agg.meanAll, 0, say('figure.heads.mean-mean')];
    if (h === 'max') return [agg.maxMean, 0, say('figure.heads.max-mean')];
    return [agg.meanLayers, h * size, say('figure.heads.head-mean', { head: h })];
  };

  const labels = rows.map((r) => r.label);
  const x0 = 16 + Math.ceil(widestText(labels, FONT));
  const y0 = (title ? 24 : 6) + 18;
  const x = (c) => x0 + c * (thumb.width + GAP);
  const y = (r) => y0 + r * (thumb.height + GAP);
  const maps = [];
  rows.forEach(({ layer }, r) =>
    columns.forEach(({ head }, c) => {
      const [data, offset, name] = source(layer, head);
      maps.push({ layer, head, data, offset, name, x: x(c), y: y(r) });
    }),
  );

  const scale = colorScale(kind, attentions.data);
  const texts = title ? [text('title', title, { x: x0, y: 15, 'font-size': 12.5 })] : [];
  columns.forEach(({ label }, c) => texts.push(text('axis', label, { x: x(c) + thumb.width / 2, y: y0 - 6, 'text-anchor': 'middle', 'font-size': FONT })));
  rows.forEach(({ label }, r) =>
    texts.push(text('axis', label, { x: x0 - 8, y: y(r) + thumb.height / 2, dy: '0.35em', 'text-anchor': 'end', 'font-size': FONT })),
  );
  const gridW = x(columns.length) - GAP - x0;
  const gridH = y(rows.length) - GAP - y0;
  const barH = Math.max(60, Math.min(gridH, 240));
  const colorBar = colorBarLayout(scale, x0 + gridW + 14, y0, barH);
  texts.push(...colorBar.texts);

  return {
    attentions,
    lang,
    L,
    H,
    T,
    Tk,
    rowLabels,
    colLabels,
    scale,
    thumb,
    maps,
    texts,
    bar: colorBar.bar,
    name: say('figure.heads.name', { title, layers: L, heads: H, rows: T, cols: Tk }),
    width: x0 + gridW + 14 + colorBar.width,
    height: Math.max(gridH, barH) + y0 + 10,
  };
}
