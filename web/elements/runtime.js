// The code an <attn-figure> needs once it is drawn, imported on demand by lazy.js (with the wasm
// core), so a page pays for it only when a figure nears the viewport: the explorer's state,
// compute and stages (through the pipeline figure), and its editing helpers.
export { compute } from '../site/compute/index.js';
export { cellIdentity } from '../site/controls/cell-identity.js';
export { editCell } from '../site/controls/cell-editor.js';
export { scrubCell } from '../site/controls/scrub.js';
export { stageById } from '../site/registry/stages.js';
export { conform } from '../site/state/conform.js';
export { cellValue, setCell, toggleMaskedCell } from '../site/state/edit.js';
export { focusedCell, restoreFocus } from '../site/views/focus.js';
export { renderPipeline } from '../figures/pipeline.js';
export { pipelineState } from '../figures/pipeline-state.js';
