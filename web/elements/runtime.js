// The code an <attn-figure> needs once it is drawn, imported on demand by lazy.js (with the wasm
// core), so a page pays for it only when a figure nears the viewport: the example state, compute
// (forward, and the backward when shown) and stages (through the pipeline figure), and the figures' cell controller.
export { cellController } from '../figures/interact/controller.js';
export { conform } from '../model/state/conform.js';
export { computeFigure, renderPipeline } from '../figures/pipeline/pipeline.js';
export { pipelineState } from '../figures/pipeline/state.js';
