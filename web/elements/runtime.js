// The code an <attn-figure> needs once it is drawn, imported on demand by lazy.js (with the wasm
// core), so a page pays for it only when a figure nears the viewport: the explorer's state,
// compute and stages (through the pipeline figure), and its editing helpers.
export { cellIdentity } from '../figures/interact/cell-identity.js';
export { editCell } from '../figures/interact/cell-editor.js';
export { scrubCell } from '../figures/interact/scrub.js';
export { stageById } from '../model/stages/registry.js';
export { conform } from '../model/state/conform.js';
export { cellValue, setCell, toggleMaskedCell } from '../model/state/edit.js';
export { focusedCell, restoreFocus } from '../figures/interact/focus.js';
export { computeFigure, renderPipeline } from '../figures/pipeline/pipeline.js';
export { pipelineState } from '../figures/pipeline/state.js';
