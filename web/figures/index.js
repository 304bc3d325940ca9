// attention-lab's figure functions (the package's 'attention-lab/figures' entry; types in
// index.d.ts): plain functions returning SVG elements, no framework, no wasm, except pipeline(),
// which draws the explorer's stages from a module the caller loaded. Each figure's root has
// data-stage; each cell data-row, data-col, data-value (String of the float32 value). Styles:
// figures.css (themable through the --attn-* custom properties).
export { matrix } from './matrix.js';
export { heatmap } from './heatmap.js';
export { heads } from './heads.js';
export { canvasHeatmap } from './canvas-map.js';
export { links } from './links.js';
export { legend } from './legend.js';
export { lineChart } from './line-chart.js';
export { colorScale } from './color.js';
export { formatNumber, fullValue } from './format.js';
export { pipeline, stageIds } from './pipeline/pipeline.js';
export { pipelineState } from './pipeline/state.js';

/** One figure as one self-contained .html file (export/standalone-html.js: its code loads on the first call). */
export async function standaloneHtml(spec, options) {
  const { standaloneHtml: build } = await import('./export/standalone-html.js');
  return build(spec, options);
}
