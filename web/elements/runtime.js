// The code an <attn-figure> needs once it is drawn, imported on demand by lazy.js (with the wasm
// core), so a page pays for it only when a figure nears the viewport: the example state, compute
// and stages (through the pipeline figure), and the figures' cell controller.
export { compute } from '../model/compute/index.js';
export { cellController } from '../figures/interact/controller.js';
export { conform } from '../model/state/conform.js';
export { renderPipeline } from '../figures/pipeline/pipeline.js';
export { pipelineState } from '../figures/pipeline/state.js';
