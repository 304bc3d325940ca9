// A softmax weight p_ij = exp(z_ij - m) / sum_j' exp(z_ij' - m), m the row's maximum (the stable
// form the core uses), with the row's numbers.
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
      heading: 'No key is visible from this query',
      lines: [`p_{${ij(cell.row, cell.col)}} = 0`],
      note: 'A fully masked row gets zero weights and a zero output (PyTorch ≥ 2.5, ONNX), never NaN. Switch “Empty rows” to d2l to see its uniform row instead.',
      sources: source,
    };
  }
  const m = Math.max(...finite);
  const e = z.map((x) => (Number.isFinite(x) ? Math.exp(x - m) : 0));
  const sum = e.reduce((a, b) => a + b, 0);
  const zj = z[cell.col];
  const numerator = Number.isFinite(zj) ? `e^{${num(zj)} - ${num(m)}}` : 'e^{-\\infty}';
  return {
    heading: `Weight of key ${cell.col + 1} for query ${cell.row + 1}`,
    lines: [
      `p_{${ij(cell.row, cell.col)}} = \\dfrac{e^{z_{${ij(cell.row, cell.col)}} - m}}{\\sum_{j'} e^{z_{${cell.row + 1}j'} - m}},\\quad m = ${num(m)}`,
      `= \\dfrac{${numerator}}{${joinTerms(e.map((x) => num(x)))}}`,
      `= \\dfrac{${num(e[cell.col])}}{${num(sum)}} = ${num(p)}`,
    ],
    note: Number.isFinite(zj) ? 'The row sums to 1.' : 'Masked: e^{−∞} = 0, so the weight is exactly 0.',
    sources: source,
  };
}
