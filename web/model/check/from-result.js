// What a check of the explorer's state needs, read from compute()'s result: the exact value of
// every stage of the shown head (its first run, batch 1) and the context the stages are recomputed
// in (stages.js). Follow-through and the named mistakes are defined for the dot product with or
// without 1/sqrt(d) and one batch (null otherwise: each stage is then marked against its exact
// value alone); with RoPE the scores are not Q Kᵀ of the Q and K shown, so they start afresh.
import { matrixSize } from '../compute/tensors.js';
import { CHECK_STAGES, givenStage } from './stages.js';

/** Matrix b of a float32 tensor as rows of numbers. */
function rowsOf(tensor, b = 0) {
  const [R, C] = matrixSize(tensor);
  return Array.from({ length: R }, (_, i) => Array.from(tensor.data.subarray((b * R + i) * C, (b * R + i + 1) * C)));
}

/** -> { exact, context, stages } for diagnose(), or null when this state's stages are not followed through. */
export function checkInputs(state, result, head = 0) {
  const tensors = result.heads[head];
  const run = tensors?.runs[0];
  if (!run || result.sizes.B !== 1 || !['dot', 'scaled-dot'].includes(run.scoring)) return null;
  const exact = {
    scores: rowsOf(run.raw),
    scaled: rowsOf(run.scaled),
    masked: rowsOf(run.masked),
    weights: rowsOf(run.weights),
    output: rowsOf(run.output),
    v: rowsOf(tensors.v),
  };
  // The Q and K shown are the projections; with RoPE on, the scores come from them rotated, so the
  // scores are then checked against their exact value alone (stages below).
  const shown = tensors.projected ?? tensors;
  Object.assign(exact, { q: rowsOf(shown.q), k: rowsOf(shown.k) });
  // The inputs as typed (0.1 stays 0.1): a hand calculation starts from these numbers.
  if (state.source === 'self') Object.assign(exact, { x: state.x, wq: state.wq[head], wk: state.wk[head], wv: state.wv[head] });
  const stages = state.rope === 'off' ? CHECK_STAGES : CHECK_STAGES.map((s) => (s.id === 'scores' ? givenStage('scores', exact.scores) : s));
  const { Tq, Tk } = result.sizes;
  const visible = Array.from({ length: Tq }, (_, i) => Array.from({ length: Tk }, (_, j) => result.visible[i * Tk + j] === 1));
  const d = matrixSize(tensors.q)[1];
  return {
    exact,
    stages,
    context: {
      // The scaling mistakes are named only against the default 1/sqrt(d) (no own scale, no temperature).
      scaled: run.scoring === 'scaled-dot' && state.scale === null && state.temperature === 1,
      scale: run.scale,
      d,
      visible,
      fill: state.maskFill === 'd2l' ? -1e6 : -Infinity,
      bias: tensors.bias ? rowsOf(tensors.bias) : null,
    },
  };
}
