// Explanations of the backward stages, term by term with the numbers (docs/semantics.md "Backward"):
// dO from the loss, dP = dO V^T, dS = P (dP - D), dQ = s dS K, dK = s dS^T Q, dV = P^T dO,
// dW = X^T dQ. Scorings other than the dot products name their chain rule and its result.
import { t } from '../../i18n/index.js';
import { at, columnOf, rowOf } from '../../model/compute/tensors.js';
import { dotTerms, factor, num, sub } from './tex.js';

const ofRun = (ctx, cell) => {
  const head = ctx.result.heads[cell.head];
  return { head, run: head.runs[cell.run], bw: ctx.result.backward.runs[cell.run] };
};

export function explainDOutput(ctx, cell) {
  const { run, bw } = ofRun(ctx, cell);
  const o = at(run.output, cell.batch, cell.row, cell.col);
  const y = at(ctx.result.backward.target, cell.batch, cell.row, cell.col);
  const ic = sub(cell.row, cell.col);
  const n = bw.dO.data.length;
  const lines =
    ctx.result.backward.lossKind === 'mean'
      ? [`\\frac{\\partial L}{\\partial O_{${ic}}} = \\tfrac{2}{n}(O_{${ic}} - Y_{${ic}}),\\quad n = ${n}`, `= \\tfrac{2}{${n}}(${num(o)} - ${factor(y)})`]
      : [`\\frac{\\partial L}{\\partial O_{${ic}}} = O_{${ic}} - Y_{${ic}}`, `= ${num(o)} - ${factor(y)}`];
  return {
    heading: t(ctx.lang, 'explain.d-output', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [...lines, `= ${num(cell.value)}`],
    sources: [
      { stage: 'output', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row, col: cell.col },
      { stage: 'target', batch: cell.batch, row: cell.row, col: cell.col },
    ],
  };
}

export function explainDWeights(ctx, cell) {
  const { head, bw } = ofRun(ctx, cell);
  const dO = rowOf(bw.dO, cell.batch, cell.row);
  const v = rowOf(head.v, cell.batch, cell.col);
  return {
    heading: t(ctx.lang, 'explain.d-weights', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [`dP_{${sub(cell.row, cell.col)}} = dO_{${cell.row + 1}} \\cdot v_{${cell.col + 1}}`, `= ${dotTerms(dO, v)}`, `= ${num(cell.value)}`],
    sources: [
      { stage: 'd-output', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row },
      { stage: 'v', head: cell.head, batch: cell.batch, row: cell.col },
    ],
  };
}

export function explainDScores(ctx, cell) {
  const { run, bw } = ofRun(ctx, cell);
  const p = rowOf(run.weights, cell.batch, cell.row);
  const dP = rowOf(bw.dP, cell.batch, cell.row);
  const D = at(bw.D, 0, cell.batch, cell.row);
  const ij = sub(cell.row, cell.col);
  const sources = [
    { stage: 'weights', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row },
    { stage: 'd-weights', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row },
  ];
  const dTerms = [`D_{${cell.row + 1}} = \\sum_{j} P_{${cell.row + 1}j}\\, dP_{${cell.row + 1}j}`, `= ${dotTerms(p, dP)} = ${num(D)}`];
  const { Tq, Tk } = ctx.result.sizes;
  if (!ctx.result.visible[(cell.batch * Tq + cell.row) * Tk + cell.col]) {
    return {
      heading: t(ctx.lang, 'explain.d-scores-masked'),
      lines: [`dS_{${ij}} = 0`, ...dTerms],
      note: t(ctx.lang, 'explain.d-scores-masked-note'),
      sources,
    };
  }
  return {
    heading: t(ctx.lang, 'explain.d-scores', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [
      `dS_{${ij}} = P_{${ij}}\\,(dP_{${ij}} - D_{${cell.row + 1}})`,
      ...dTerms,
      `= ${num(p[cell.col])} \\cdot (${num(dP[cell.col])} - ${factor(D)}) = ${num(cell.value)}`,
    ],
    note: t(ctx.lang, 'explain.d-scores-note'),
    sources,
  };
}

/** dQ (side 'q') or dK (side 'k') of a dot-product scoring, term by term; other scorings by name. */
function explainScoreSide(ctx, cell, side) {
  const { head, bw } = ofRun(ctx, cell);
  const name = side === 'q' ? 'dQ' : 'dK';
  const other = side === 'q' ? 'k' : 'q';
  const Other = other.toUpperCase();
  const ic = sub(cell.row, cell.col);
  const dS = side === 'q' ? rowOf(bw.dS, cell.batch, cell.row) : columnOf(bw.dS, cell.batch, cell.row);
  const sources = [
    { stage: 'd-scores', head: cell.head, run: cell.run, batch: cell.batch, ...(side === 'q' ? { row: cell.row } : { col: cell.row }) },
    { stage: other, head: cell.head, batch: cell.batch, col: cell.col },
  ];
  if (bw.scoring !== 'dot' && bw.scoring !== 'scaled-dot') {
    return {
      heading: t(ctx.lang, 'explain.d-score-side', { name, row: cell.row + 1, col: cell.col + 1, scoring: t(ctx.lang, `site.scoring.${bw.scoring}`) }),
      lines: [`${name}_{${ic}} = s \\sum_{${side === 'q' ? 'j' : 'i'}} dS \\, \\frac{\\partial a(q, k)}{\\partial ${side}_{${ic}}}`, `= ${num(cell.value)}`],
      note: t(ctx.lang, 'explain.d-score-side-note'),
      sources,
    };
  }
  const sum = side === 'q' ? 'j' : 'i';
  return {
    heading: t(ctx.lang, side === 'q' ? 'explain.d-query' : 'explain.d-key', { name, row: cell.row + 1, col: cell.col + 1, other: Other }),
    lines: [
      `${name}_{${ic}} = s \\sum_${sum} dS_{${side === 'q' ? `${cell.row + 1}j` : `i${cell.row + 1}`}}\\, ${Other}_{${sum}${cell.col + 1}}`,
      `= ${num(bw.scale)} \\cdot (${dotTerms(dS, columnOf(head[other], cell.batch, cell.col))})`,
      `= ${num(cell.value)}`,
    ],
    sources,
  };
}

export const explainDQuery = (ctx, cell) => explainScoreSide(ctx, cell, 'q');
export const explainDKey = (ctx, cell) => explainScoreSide(ctx, cell, 'k');

export function explainDValue(ctx, cell) {
  const { run, bw } = ofRun(ctx, cell);
  const p = columnOf(run.weights, cell.batch, cell.row);
  const dO = columnOf(bw.dO, cell.batch, cell.col);
  return {
    heading: t(ctx.lang, 'explain.d-value', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [`dV_{${sub(cell.row, cell.col)}} = \\sum_i P_{i${cell.row + 1}}\\, dO_{i${cell.col + 1}}`, `= ${dotTerms(p, dO)}`, `= ${num(cell.value)}`],
    sources: [
      { stage: 'weights', head: cell.head, run: cell.run, batch: cell.batch, col: cell.row },
      { stage: 'd-output', head: cell.head, run: cell.run, batch: cell.batch, col: cell.col },
    ],
  };
}

/** dW = X^T dQ (and K, V): column t of X times column c of the projection's gradient. */
export function explainDWeight(ctx, cell, { tex, from, fromTex }) {
  const x = columnOf(ctx.result.x, 0, cell.row);
  const bw = ctx.result.backward.runs[cell.run];
  // With RoPE, Q = rope(X Wq): dW sums the gradient of X Wq, i.e. dQ turned back by ropeBackward.
  const turned = Boolean(ctx.state.rope !== 'off' && bw.unrotated?.[from]);
  const g = columnOf(turned ? bw.unrotated[from] : bw[from], 0, cell.col);
  const letter = fromTex.slice(1);
  const gTex = turned ? `\\overleftarrow{${fromTex}}` : fromTex;
  return {
    heading: t(ctx.lang, turned ? 'explain.d-weight-turned' : 'explain.d-weight', {
      name: tex.replace('^', ''),
      row: cell.row + 1,
      col: cell.col + 1,
      from: fromTex,
    }),
    lines: [`${tex}_{${sub(cell.row, cell.col)}} = \\sum_i X_{i${cell.row + 1}}\\, ${gTex}_{i${cell.col + 1}}`, `= ${dotTerms(x, g)}`, `= ${num(cell.value)}`],
    note: t(ctx.lang, turned ? 'explain.d-weight-note-rope' : 'explain.d-weight-note', {
      letter,
      lower: letter.toLowerCase(),
      from: fromTex,
      sgd: t(ctx.lang, 'explain.sgd-note'),
    }),
    sources: [
      { stage: 'x', batch: 0, col: cell.row },
      { stage: from, head: cell.head, run: cell.run, batch: 0, col: cell.col },
    ],
  };
}
