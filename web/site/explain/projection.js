// Q = X Wq (and K, V): one entry as the sum over the input features.
import { t } from '../../i18n/index.js';
import { at, columnOf, rowOf } from '../../model/compute/tensors.js';
import { dotTerms, num, sub } from './tex.js';

/** stage 'q' | 'k' | 'v' of a 'self' state: the entry's row of X times a column of the weight. */
export function explainProjection(letter, weightStage, ctx, cell) {
  const { result } = ctx;
  const head = result.heads[cell.head];
  const w = head[weightStage];
  const x = rowOf(result.x, 0, cell.row);
  const column = columnOf(w, 0, cell.col);
  const W = `W^{${letter.toUpperCase()}}`;
  return {
    heading: t(ctx.lang, 'explain.projection', { letter: letter.toUpperCase(), row: cell.row + 1, col: cell.col + 1, weight: letter }),
    lines: [
      `${letter}_{${sub(cell.row, cell.col)}} = \\sum_t x_{${cell.row + 1},t}\\, ${W}_{t,${cell.col + 1}}`,
      `= ${dotTerms(x, column)}`,
      `= ${num(at(head.projected?.[letter] ?? head[letter], cell.batch, cell.row, cell.col))}`,
    ],
    sources: [
      { stage: 'x', batch: 0, row: cell.row },
      { stage: weightStage, head: cell.head, batch: 0, col: cell.col },
    ],
  };
}

/** An input or weight entry: where it sits and what it means. */
export function explainInput(ctx, cell, meaning) {
  return { heading: meaning, lines: [`= ${num(cell.value)}`], note: t(ctx.lang, 'explain.editable'), sources: [] };
}
