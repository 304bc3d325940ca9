// One instance of a stage (stage.instances(ctx)[k]) as a matrix figure, labelled for screen
// readers with the stage's noun, the row and column labels, the number shown and the exact value. Shared by the
// explorer's cards (stage-card.js) and the embeddable pipeline (web/figures/pipeline/pipeline.js), which
// has no KaTeX and so cannot import the cards themselves.
import { spokenValue } from '../format.js';
import { matrix } from '../matrix.js';

/** inst: { tensor, label?, rowLabels?, colLabels?, masked?, editable?, attrs }. */
export function stageFigure(stage, inst) {
  return matrix(inst.tensor, {
    stage: stage.id,
    title: `${stage.title}, ${stage.noun}${inst.label ? ` (${inst.label})` : ''}`,
    kind: stage.kind,
    rowLabels: inst.rowLabels ?? null,
    colLabels: inst.colLabels ?? null,
    masked: inst.masked ?? null,
    editable: inst.editable,
    attrs: inst.attrs,
    cellLabel: (b, i, j, v, shown) =>
      `${stage.noun}${inst.label ? ` (${inst.label})` : ''}${inst.tensor.shape.length > 2 && inst.tensor.shape[0] > 1 ? `, batch ${b + 1}` : ''}, row ${i + 1}${inst.rowLabels ? ` (${inst.rowLabels[i]})` : ''}, column ${j + 1}${inst.colLabels ? ` (${inst.colLabels[j]})` : ''}: ${spokenValue(v, shown)}`,
  });
}
