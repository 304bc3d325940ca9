// One raw score a(q_i, k_j) of each scoring function, term by term (docs/semantics.md table).
import { t } from '../../i18n/index.js';
import { at, rowOf } from '../../model/compute/tensors.js';
import { dotTerms, factor, joinTerms, num, ij } from './tex.js';

const matVec = (m, v) => m.map((row) => row.reduce((s, x, c) => s + x * v[c], 0));
const vecMat = (v, m) => m[0].map((_, c) => v.reduce((s, x, r) => s + x * m[r][c], 0));

const TERMS = {
  dot: (q, k) => [`q_i \\cdot k_j`, dotTerms(q, k)],
  'scaled-dot': (q, k) => [`q_i \\cdot k_j`, dotTerms(q, k)],
  general: (q, k, p) => {
    const wk = matVec(p.w, k);
    return [`q_i^{\\top} W k_j = q_i \\cdot (W k_j)`, dotTerms(q, wk)];
  },
  additive: (q, k, p) => {
    const qw = vecMat(q, p.wq);
    const kw = vecMat(k, p.wk);
    const terms = p.wv.map((w, h) => `${factor(w)}\\tanh(${num(qw[h] + kw[h])})`);
    return [`w_v^{\\top} \\tanh(q_i W_q + k_j W_k)`, joinTerms(terms)];
  },
  concat: (q, k, p) => [`w^{\\top} [q_i; k_j]`, dotTerms([...q, ...k], p.w)],
};

/** The raw score (before scale and mask) of cell (batch, row, col). */
export function explainScore(ctx, cell) {
  const { result, state } = ctx;
  const head = result.heads[cell.head];
  const run = head.runs[cell.run];
  const q = rowOf(head.q, cell.batch, cell.row);
  const k = rowOf(head.k, cell.batch, cell.col);
  const [definition, terms] = TERMS[run.scoring](q, k, state.params[run.scoring]);
  return {
    heading: t(ctx.lang, 'explain.score', { row: cell.row + 1, col: cell.col + 1, scoring: t(ctx.lang, `site.scoring.${run.scoring}`) }),
    lines: [`s_{${ij(cell.row, cell.col)}} = ${definition}`, `= ${terms}`, `= ${num(at(run.raw, cell.batch, cell.row, cell.col))}`],
    note: t(ctx.lang, 'explain.click-to-mask'),
    sources: [
      { stage: 'q', head: cell.head, batch: cell.batch, row: cell.row },
      { stage: 'k', head: cell.head, batch: cell.batch, row: cell.col },
    ],
  };
}

/** The scaled score: raw times scale / temperature. */
export function explainScaled(ctx, cell) {
  const { result, state } = ctx;
  const run = result.heads[cell.head].runs[cell.run];
  const raw = at(run.raw, cell.batch, cell.row, cell.col);
  const d = result.heads[cell.head].q.shape.at(-1);
  const base = state.scale === null ? (run.scoring === 'scaled-dot' ? `\\tfrac{1}{\\sqrt{${d}}}` : '1') : num(state.scale);
  const factorTex = state.temperature === 1 ? base : `${base} / ${num(state.temperature)}`;
  return {
    heading: t(ctx.lang, 'explain.scaled', { row: cell.row + 1, col: cell.col + 1 }),
    lines: [
      `\\tilde s_{${ij(cell.row, cell.col)}} = s_{${ij(cell.row, cell.col)}} \\times ${factorTex}`,
      `= ${factor(raw)} \\times ${num(run.scale)}`,
      `= ${num(at(run.scaled, cell.batch, cell.row, cell.col))}`,
    ],
    note: t(ctx.lang, 'explain.click-to-mask'),
    sources: [{ stage: 'scores', head: cell.head, run: cell.run, batch: cell.batch, row: cell.row, col: cell.col }],
  };
}
