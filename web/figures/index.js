// attention-lab's figure functions: plain functions returning SVG elements, no framework, no
// wasm. Each figure's root has data-stage; each cell data-row, data-col, data-value (String of
// the float32 value). Styles: figures.css (themable through the --attn-* custom properties).
export { matrix } from './matrix.js';
export { heatmap } from './heatmap.js';
export { links } from './links.js';
export { legend } from './legend.js';
export { lineChart } from './line-chart.js';
export { colorScale } from './color.js';
export { formatNumber, fullValue } from './format.js';
