// Explanations of the layer's output (the heads through W^O) and its gradients:
//   Y_ic = sum_f [O]_if Wo_fc,   dO^h_ic = sum_c' dY_ic' Wo_(h dv + c), c',   dWo_fc = sum_i [O]_if dY_ic.
import { t } from '../../i18n/index.js';
import { at, columnOf, rowOf } from '../../model/compute/tensors.js';
import { dotTerms, factor, num, sub } from './tex.js';

const woRow = (state, f) => state.wo[f];
const woColumn = (state, c) => state.wo.map((row) => row[c]);

export function explainConcat(ctx, cell) {
  const dv = ctx.result.sizes.dv;
  const h = Math.floor(cell.col / dv);
  return {
    heading: t(ctx.lang, 'explain.concat', { col: cell.col + 1, head: h + 1, within: (cell.col % dv) + 1 }),
    lines: [`[O]_{${sub(cell.row, cell.col)}} = O^{(${h + 1})}_{${sub(cell.row, cell.col % dv)}} = ${num(cell.value)}`],
    sources: [{ stage: 'output', head: h, run: cell.run, batch: 0, row: cell.row, col: cell.col % dv }],
  };
}

export function explainProjected(ctx, cell) {
  const { state, result } = ctx;
  const concat = rowOf(result.projected[cell.run].concat, 0, cell.row);
  if (!state.wo) return explainConcat(ctx, cell);
  return {
    heading: t(ctx.lang, 'explain.projected', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [
      `Y_{${sub(cell.row, cell.col)}} = \\sum_f [O]_{${cell.row + 1}f}\\, W^O_{f${cell.col + 1}}`,
      `= ${dotTerms(concat, woColumn(state, cell.col))}`,
      `= ${num(cell.value)}`,
    ],
    sources: [...result.heads.map((_, h) => ({ stage: 'output', head: h, run: cell.run, batch: 0, row: cell.row })), { stage: 'wo', batch: 0, col: cell.col }],
  };
}

export function explainDProjected(ctx, cell) {
  const bw = ctx.result.backward.runs[cell.run];
  const y = at(ctx.result.projected[cell.run].output, 0, cell.row, cell.col);
  const target = at(ctx.result.backward.target, 0, cell.row, cell.col);
  const ic = sub(cell.row, cell.col);
  const n = bw.dY.data.length;
  const lines =
    ctx.result.backward.lossKind === 'mean'
      ? [
          `\\frac{\\partial L}{\\partial Y_{${ic}}} = \\tfrac{2}{n}(Y_{${ic}} - Y^{*}_{${ic}}),\\quad n = ${n}`,
          `= \\tfrac{2}{${n}}(${num(y)} - ${factor(target)})`,
        ]
      : [`\\frac{\\partial L}{\\partial Y_{${ic}}} = Y_{${ic}} - Y^{*}_{${ic}}`, `= ${num(y)} - ${factor(target)}`];
  return {
    heading: t(ctx.lang, 'explain.d-projected', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [...lines, `= ${num(cell.value)}`],
    sources: [
      { stage: 'projected-output', run: cell.run, batch: 0, row: cell.row, col: cell.col },
      { stage: 'target', batch: 0, row: cell.row, col: cell.col },
    ],
  };
}

/** dO of head h (cell.head) from dY: through W^O's rows of that head, or dY's own columns. */
export function explainHeadShare(ctx, cell) {
  const { state, result } = ctx;
  const dY = rowOf(result.backward.runs[cell.run].dY, 0, cell.row);
  const f = cell.head * result.sizes.dv + cell.col;
  const sources = [{ stage: 'd-projected', run: cell.run, batch: 0, row: cell.row }];
  if (!state.wo) {
    return {
      heading: t(ctx.lang, 'explain.head-share-plain', { row: cell.row + 1, col: cell.col + 1, f: f + 1 }),
      lines: [`dO_{${sub(cell.row, cell.col)}} = dY_{${sub(cell.row, f)}} = ${num(cell.value)}`],
      sources,
    };
  }
  return {
    heading: t(ctx.lang, 'explain.head-share', { row: cell.row + 1, col: cell.col + 1, f: f + 1, head: cell.head + 1 }),
    lines: [`dO_{${sub(cell.row, cell.col)}} = \\sum_c dY_{${cell.row + 1}c}\\, W^O_{${f + 1}c}`, `= ${dotTerms(dY, woRow(state, f))}`, `= ${num(cell.value)}`],
    sources: [...sources, { stage: 'wo', batch: 0, row: f }],
  };
}

export function explainDWo(ctx, cell) {
  const { result } = ctx;
  const concat = columnOf(result.projected[0].concat, 0, cell.row);
  const dY = columnOf(result.backward.runs[0].dY, 0, cell.col);
  return {
    heading: t(ctx.lang, 'explain.d-wo', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [`dW^O_{${sub(cell.row, cell.col)}} = \\sum_i [O]_{i${cell.row + 1}}\\, dY_{i${cell.col + 1}}`, `= ${dotTerms(concat, dY)}`, `= ${num(cell.value)}`],
    note: t(ctx.lang, 'explain.sgd-note'),
    sources: [
      { stage: 'concat-output', run: 0, batch: 0, col: cell.row },
      { stage: 'd-projected', run: 0, batch: 0, col: cell.col },
    ],
  };
}
