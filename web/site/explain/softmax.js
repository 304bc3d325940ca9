// A softmax weight p_ij = exp(z_ij - m) / sum_j' exp(z_ij' - m), m the row's maximum (the stable
// form the core uses), with the row's numbers.
import { t } from '../../i18n/index.js';
import { at, rowOf } from '../../model/compute/tensors.js';
import { joinTerms, num, ij } from './tex.js';

export function explainWeight(ctx, cell) {
  const { result } = ctx;
  const run = result.heads[cell.head].runs[cell.run];
  const z = rowOf(run.masked, cell.batch, cell.row);
  const p = at(run.weights, cell.batch, cell.row, cell.col);
  const finite = z.filter(Number.isFinite);
  const source = [{ stage: 'masked', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row }];
  if (finite.length === 0) {
    return {
      heading: t(ctx.lang, 'explain.no-key'),
      lines: [`p_{${ij(cell.row, cell.col)}} = 0`],
      note: t(ctx.lang, 'explain.no-key-note'),
      sources: source,
    };
  }
  const m = Math.max(...finite);
  const e = z.map((x) => (Number.isFinite(x) ? Math.exp(x - m) : 0));
  const sum = e.reduce((a, b) => a + b, 0);
  const zj = z[cell.col];
  const numerator = Number.isFinite(zj) ? `e^{${num(zj)} - ${num(m)}}` : 'e^{-\\infty}';
  return {
    heading: t(ctx.lang, 'explain.weight', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [
      `p_{${ij(cell.row, cell.col)}} = \\dfrac{e^{z_{${ij(cell.row, cell.col)}} - m}}{\\sum_{j'} e^{z_{${cell.row + 1}j'} - m}},\\quad m = ${num(m)}`,
      `= \\dfrac{${numerator}}{${joinTerms(e.map((x) => num(x)))}}`,
      `= \\dfrac{${num(e[cell.col])}}{${num(sum)}} = ${num(p)}`,
    ],
    note: t(ctx.lang, Number.isFinite(zj) ? 'explain.row-sums' : 'explain.weight-masked'),
    sources: source,
  };
}
