// Where a preset's printed numbers (the tutorial's text) differ from the exact ones: per stage,
// how many cells are off by more than the text's rounding (model/check/marks.js decides, as for any
// hand calculation), and the first such row.
import { formatNumber } from '../../../figures/index.js';
import { checkEntry } from '../../../model/check/marks.js';
import { at } from '../../../model/compute/tensors.js';

const STAGE_TENSOR = {
  q: (head) => head.q,
  k: (head) => head.k,
  v: (head) => head.v,
  scores: (head) => head.runs[0].raw,
  scaled: (head) => head.runs[0].scaled,
  weights: (head) => head.runs[0].weights,
  output: (head) => head.runs[0].output,
};

/** [{ stage, wrong, total, row, printed: number[], exact: number[] }] for the stages that differ. */
export function errata(printed, result) {
  const head = result.heads[0];
  const list = [];
  for (const [stage, rows] of Object.entries(printed)) {
    const tensor = STAGE_TENSOR[stage](head);
    let wrong = 0;
    let firstRow = -1;
    rows.forEach((row, i) =>
      row.forEach((p, j) => {
        if (checkEntry(p, at(tensor, 0, i, j)).status === 'wrong') {
          wrong += 1;
          if (firstRow < 0) firstRow = i;
        }
      }),
    );
    if (wrong > 0) {
      list.push({
        stage,
        wrong,
        total: rows.length * rows[0].length,
        row: firstRow,
        printed: rows[firstRow].map(Number),
        exact: rows[firstRow].map((_, j) => at(tensor, 0, firstRow, j)),
      });
    }
  }
  return list;
}

export const formatRow = (row) => `[${row.map(formatNumber).join(', ')}]`;
