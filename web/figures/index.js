// attention-lab's figure functions (the package's 'attention-lab/figures' entry; types in
// index.d.ts): plain functions returning SVG elements, no framework, no wasm, except pipeline(),
// which draws the explorer's stages from a module the caller loaded. pipeline(), pipelineState()
// and stageIds() are async: the model (state, presets, compute, stages) loads on their first call,
// and only what a call needs, so importing the entry costs the drawing code alone. Each figure's
// root has data-stage; each cell data-row, data-col, data-value (String of the float32 value).
// Styles: figures.css (themable through the --attn-* custom properties).
export { matrix } from './matrix.js';
export { heatmap } from './heatmap.js';
export { colorBarLayout, heatmapLayout } from './heatmap-layout.js';
export { heads } from './heads.js';
export { headsLayout } from './heads-layout.js';
export { canvasHeatmap } from './canvas-map.js';
export { CELL_BUDGET, heatmapOrCanvas } from './heatmap-or-canvas.js';
export { links } from './links.js';
export { legend } from './legend.js';
export { lineChart } from './line-chart.js';
export { colorScale } from './color.js';
export { toneMix } from './canvas-theme.js';
export { formatNumber, fullValue } from './format.js';
export { NAN_GREY, PALETTE } from './palette.js';

export { widestText } from './svg.js';
// The figures draw synchronously in English at once; zh-CN's words load first (on demand).
export { loadLanguage } from '../i18n/languages.js';

/** The explorer's pipeline for a spec (pipeline/pipeline.js): -> Promise<HTMLDivElement>. */
export async function pipeline(spec) {
  const { pipeline: draw } = await import('./pipeline/pipeline.js');
  return draw(spec);
}

/** The explorer state a spec describes (pipeline/state.js), its preset loaded first: -> Promise<object>. */
export async function pipelineState(spec) {
  const { loadPipelineState } = await import('./pipeline/state.js');
  return loadPipelineState(spec);
}

/** A file's tensors (attention-lab/io's readTensors) as a pipeline spec's data, or null for attention weights alone (model/roles.js). */
export async function pipelineData(file, transpose = null) {
  const { fileStatePatch } = await import('../model/roles.js');
  return fileStatePatch(file, transpose);
}

/** Every stage id, forward then backward, in pipeline order (pipeline/figure.js): -> Promise<string[]>. */
export async function stageIds() {
  const { stageIds: ids } = await import('./pipeline/figure.js');
  return ids();
}

/** One figure as one self-contained .html file (export/standalone-html.js: its code loads on the first call). */
export async function standaloneHtml(spec, options) {
  const { standaloneHtml: build } = await import('./export/standalone-html.js');
  return build(spec, options);
}
