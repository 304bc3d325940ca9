// The code an <attn-figure> needs once it is drawn, imported on demand by lazy.js (with the wasm
// core), so a page pays for it only when a figure nears the viewport: the example state, compute
// (the forward; loadFigure imports the backward pass only for a figure that shows it, and the one
// preset it names), the stages and their drawing, and the figures' cell controller.
export { cellController } from '../figures/interact/controller.js';
export { compute } from '../model/compute/index.js';
export { conform } from '../model/state/conform.js';
export { createStore } from '../model/state/store.js';
export { renderPipeline } from '../figures/pipeline/figure.js';
export { loadFigure } from '../figures/pipeline/load.js';
