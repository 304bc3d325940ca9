// heatmapOrCanvas(weights, options): heatmap()'s SVG cells up to CELL_BUDGET weights, beyond it
// canvasHeatmap()'s pixels with a caption that says so. Each SVG cell is a <g> with a <title>, a
// <rect> and an aria-label, some 4 KiB and 40 µs of layout in Chromium: a 1024 x 1024 map took
// 40 s and 4 GiB. 16,384 cells (128 x 128) stay under a second and ~64 MiB, and at that size the
// cells are already at heatmap()'s 14 px minimum, 1.8k px across: past it a cell per weight is no
// longer read one by one anyway.
//
// What the canvas form keeps: the title, the colours of both scales, masked weights (in the masked
// background, not hatched), the exact value under the pointer or the keyboard's cursor (the canvas
// is focusable, named, described by the caption). What it loses: a DOM cell per weight (screen
// readers read the readout, one weight at a time, not a grid), axis tick labels, the colour bar,
// the values drawn in cells (numbers), and SVG export (PNG/SVG buttons of an element are hidden).
//
// The caption is the figures' one string in two languages; there is no i18n catalog yet, so both
// live here, picked by options.lang ('zh*' -> Chinese, anything else English).
import { toTensor } from '../src/to-tensor.js';
import { canvasHeatmap } from './canvas-map.js';
import { heatmap } from './heatmap.js';

export const CELL_BUDGET = 16_384;

const CANVAS_NOTE = {
  en: (cells) =>
    `Drawn on a canvas: ${cells} cells are more than the ${CELL_BUDGET.toLocaleString('en-US')} drawn as SVG cells. Point at a weight, or focus the map and use the arrow keys, to read it.`,
  zh: (cells) => `以画布绘制：${cells} 个单元格超过 SVG 单元格的上限 ${CELL_BUDGET.toLocaleString('en-US')}。将指针移到权重上，或聚焦图后用方向键读取。`,
};

/** The caption of a heatmap of `cells` weights drawn on a canvas, in `lang` (a BCP 47 tag). */
export function canvasNote(cells, lang = 'en') {
  const say = /^zh\b/i.test(lang ?? '') ? CANVAS_NOTE.zh : CANVAS_NOTE.en;
  return say(cells.toLocaleString('en-US'));
}

/**
 * weights: as heatmap()'s ((Tq, Tk) or (B, Tq, Tk), batches stacked as rows); options: heatmap()'s,
 * plus lang (the caption's language). -> SVGSVGElement (heatmap()) or HTMLDivElement (canvas).
 */
export function heatmapOrCanvas(input, options = {}) {
  const { lang, ...rest } = options;
  const weights = toTensor(input, 'heatmap: weights');
  const { data, shape } = weights;
  if (data.length <= CELL_BUDGET) return heatmap(weights, rest);
  const [R, C] = shape.length === 1 ? [1, shape[0]] : shape.slice(-2);
  const B = data.length / (R * C);
  const batchLabel = rest.batchLabel ?? ((b) => `b${b + 1}`);
  const rowLabels =
    rest.rowLabels && B > 1 ? Array.from({ length: B * R }, (_, r) => `${batchLabel(Math.floor(r / R))} · ${rest.rowLabels[r % R]}`) : rest.rowLabels;
  return canvasHeatmap(
    { data, shape: [B * R, C] },
    {
      title: rest.title ?? 'Attention weights',
      rowLabels: rowLabels ?? null,
      colLabels: rest.colLabels ?? null,
      colorScale: rest.colorScale,
      masked: rest.masked ?? null,
      note: canvasNote(data.length, lang),
    },
  );
}
