// The diagnosis of the numbers typed in check mode, for the explorer's cards: one diagnose() per
// render (model/check), shared by every card, and a report per batch for each stage in check mode.
// A stage the diagnosis does not follow (gradients, several batches, additive scoring) is marked
// against its exact value alone.
import { diagnose } from '../../../model/check/diagnose.js';
import { checkInputs } from '../../../model/check/from-result.js';
import { givenStage } from '../../../model/check/stages.js';
import { matrixSize, stackCount } from '../../../model/compute/tensors.js';

const diagnoses = new WeakMap(); // compute()'s result -> its diagnosis (a new result on every edit)

/** Matrix b of a float32 tensor as rows of numbers. */
function rowsOf(tensor, b) {
  const [R, C] = matrixSize(tensor);
  return Array.from({ length: R }, (_, i) => Array.from(tensor.data.subarray((b * R + i) * C, (b * R + i + 1) * C)));
}

/** diagnose() of every stage in check mode (batch 1), or null when this state is not followed through. */
export function diagnosisOf(ctx) {
  if (diagnoses.has(ctx.result)) return diagnoses.get(ctx.result);
  const input = checkInputs(ctx.state, ctx.result, ctx.head);
  const typed = Object.fromEntries(Object.entries(ctx.state.checks).map(([id, blocks]) => [id, blocks[0]]));
  const diagnosis = input ? diagnose({ ...input, typed }) : null;
  diagnoses.set(ctx.result, diagnosis);
  return diagnosis;
}

/** [StageReport per batch] of a stage in check mode: the diagnosis's, else marks against `tensor` alone. */
export function stageReports(ctx, stageId, tensor) {
  const diagnosed = stackCount(tensor) === 1 ? diagnosisOf(ctx)?.stages[stageId] : null;
  if (diagnosed) return [diagnosed];
  const entries = ctx.state.checks[stageId] ?? [];
  return Array.from({ length: stackCount(tensor) }, (_, b) => {
    const exact = rowsOf(tensor, b);
    return diagnose({ exact: { [stageId]: exact }, typed: { [stageId]: entries[b] }, context: {}, stages: [givenStage(stageId, exact)] }).stages[stageId];
  });
}
