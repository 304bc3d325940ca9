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
// Its words, the caption's too, come from the figures' catalog in options.lang ('en' or 'zh-CN').
import { toTensor } from '../src/to-tensor.js';
import { figureMessage, langOption } from '../i18n/figure-text.js';
import { canvasHeatmap } from './canvas-map.js';
import { heatmap } from './heatmap.js';

export const CELL_BUDGET = 16_384;

/** The caption of a heatmap of `cells` weights drawn on a canvas, in `lang` ('en' or 'zh-CN'). */
export function canvasNote(cells, lang = 'en') {
  return figureMessage(lang, 'figure.canvas.note', { cells: cells.toLocaleString('en-US'), budget: CELL_BUDGET.toLocaleString('en-US') });
}

/**
 * weights: as heatmap()'s ((Tq, Tk) or (B, Tq, Tk), batches stacked as rows); options: heatmap()'s,
 * lang included ('en' or 'zh-CN': the caption's language too). -> SVGSVGElement (heatmap()) or HTMLDivElement (canvas).
 */
export function heatmapOrCanvas(input, options = {}) {
  const lang = langOption(options.lang, 'heatmap');
  const rest = { ...options, lang };
  const weights = toTensor(input, 'heatmap: weights');
  const { data, shape } = weights;
  if (data.length <= CELL_BUDGET) return heatmap(weights, rest);
  const [R, C] = shape.length === 1 ? [1, shape[0]] : shape.slice(-2);
  const B = data.length / (R * C);
  const batchLabel = rest.batchLabel ?? ((b) => `b${b}`);
  const rowLabels =
    rest.rowLabels && B > 1 ? Array.from({ length: B * R }, (_, r) => `${batchLabel(Math.floor(r / R))} · ${rest.rowLabels[r % R]}`) : rest.rowLabels;
  return canvasHeatmap(
    { data, shape: [B * R, C] },
    {
      title: rest.title ?? figureMessage(lang, 'figure.heatmap.title'),
      rowLabels: rowLabels ?? null,
      colLabels: rest.colLabels ?? null,
      colorScale: rest.colorScale,
      masked: rest.masked ?? null,
      note: canvasNote(data.length, lang),
      lang,
    },
  );
}
