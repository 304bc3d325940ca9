// An output entry o_ic = sum_j p_ij v_jc: the weighted sum of column c of V.
import { t } from '../../i18n/index.js';
import { at, columnOf, rowOf } from '../../model/compute/tensors.js';
import { dotTerms, num, sub } from './tex.js';

export function explainOutput(ctx, cell) {
  const { result } = ctx;
  const head = result.heads[cell.head];
  const run = head.runs[cell.run];
  const p = rowOf(run.weights, cell.batch, cell.row);
  const v = columnOf(head.v, cell.batch, cell.col);
  return {
    heading: t(ctx.lang, 'explain.output', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [
      `o_{${sub(cell.row, cell.col)}} = \\sum_j p_{${cell.row + 1}j}\\, v_{j${cell.col + 1}}`,
      `= ${dotTerms(p, v)}`,
      `= ${num(at(run.output, cell.batch, cell.row, cell.col))}`,
    ],
    sources: [
      { stage: 'weights', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row },
      { stage: 'v', head: cell.head, batch: cell.batch, col: cell.col },
    ],
  };
}
