// One instance of a stage (stage.instances(ctx)[k]) as a matrix figure, labelled for screen
// readers with the stage's noun, the row and column labels, the number shown and the exact value. Shared by the
// explorer's cards (stage-card.js) and the embeddable pipeline (web/figures/pipeline/pipeline.js), which
// has no KaTeX and so cannot import the cards themselves.
// Its words are in the stage language (web/model/stages/registry.js), as the stage's noun.
import { figureMessage } from '../../i18n/figure-text.js';
import { stageLanguage } from '../../model/stages/registry.js';
import { spokenValue } from '../format.js';
import { matrix } from '../matrix.js';

/** inst: { tensor, label?, rowLabels?, colLabels?, masked?, editable?, attrs }. */
export function stageFigure(stage, inst) {
  const lang = stageLanguage();
  const say = (key, params) => figureMessage(lang, key, params);
  const named = (text, labels, k) => (labels ? `${text} (${labels[k]})` : text);
  return matrix(inst.tensor, {
    lang,
    stage: stage.id,
    title: `${stage.title}, ${stage.noun}${inst.label ? ` (${inst.label})` : ''}`,
    colorScale: stage.kind,
    rowLabels: inst.rowLabels ?? null,
    colLabels: inst.colLabels ?? null,
    masked: inst.masked ?? null,
    editable: inst.editable,
    attrs: inst.attrs,
    cellLabel: (b, i, j, v, shown) =>
      `${stage.noun}${inst.label ? ` (${inst.label})` : ''}${inst.tensor.shape.length > 2 && inst.tensor.shape[0] > 1 ? `, ${say('figure.cell.batch', { batch: b + 1 })}` : ''}, ${named(say('figure.cell.row', { row: i + 1 }), inst.rowLabels, i)}, ${named(say('figure.cell.col', { col: j + 1 }), inst.colLabels, j)}: ${spokenValue(v, shown, lang)}`,
  });
}
