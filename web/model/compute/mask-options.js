// The state's masks as the API's MaskOptions (index.d.ts): causal, validLens, a boolean attnMask
// for the clicked cells (1 = may attend, shape (B, Tq, Tk) for rank-3 q), the sliding window,
// maskFill for d2l mode. ALiBi is per head (positions.js).
import { D2L_FILL, sizesOf } from '../state/model.js';
import { windowOption } from './positions.js';

/** Mask options without maskFill: what decides visibility. */
export function visibilityOptions(state) {
  const { B, Tq, Tk } = sizesOf(state);
  const options = {};
  if (state.causal !== 'none') options.causal = state.causal;
  if (state.validLens) options.validLens = state.validLens.lens;
  const window = windowOption(state);
  if (window) options.window = window;
  if (state.maskedCells.length > 0) {
    const data = new Uint8Array(B * Tq * Tk).fill(1);
    for (const [b, i, j] of state.maskedCells) data[(b * Tq + i) * Tk + j] = 0;
    options.attnMask = { data, shape: [B, Tq, Tk] };
  }
  return options;
}

/** All mask options of the state, maskFill included. */
export function maskOptions(state) {
  const options = visibilityOptions(state);
  if (state.maskFill === 'd2l') options.maskFill = D2L_FILL;
  return options;
}
