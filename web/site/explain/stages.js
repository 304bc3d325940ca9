// What the explorer adds to each stage of web/model/stages, keyed by stage id: the formula typeset
// beside its matrix, and the explanation of one of its numbers. The stages themselves are data
// shared with the figures, which draw no TeX.
//   formula(ctx) -> TeX
//   explain(ctx, cell) -> { heading, lines: [TeX], note?, sources: [{ stage, head?, run?, batch, row?, col? }] }
import { t } from '../../i18n/index.js';
import { NAMES } from '../../model/stages/params.js';
import { ROPE_PARTS } from '../../model/stages/positions.js';
import { WEIGHT_GRADIENTS } from '../../model/stages/backward.js';
import { hasLayerOutput, isSelf } from '../../model/stages/common.js';
import * as backward from './backward.js';
import { explainMasked } from './mask.js';
import { explainOutput } from './output.js';
import { explainConcat, explainDProjected, explainDWo, explainHeadShare, explainProjected } from './layer-output.js';
import { explainBias, explainRotation } from './positions.js';
import { explainInput, explainProjection } from './projection.js';
import { explainScaled, explainScore } from './scores.js';
import { explainWeight } from './softmax.js';

const SCORE_TEX = {
  dot: 'S = Q K^{\\top}',
  'scaled-dot': 'S = Q K^{\\top}',
  general: 'S_{ij} = q_i^{\\top} W\\, k_j',
  additive: 'S_{ij} = w_v^{\\top} \\tanh(q_i W_q + k_j W_k)',
  concat: 'S_{ij} = w^{\\top} [\\,q_i ; k_j\\,]',
};

const GRADIENT_TEX = {
  dot: ['dQ = s\\, dS\\, K', 'dK = s\\, dS^{\\top} Q'],
  general: ['dQ = s\\, dS\\, K W^{\\top}', 'dK = s\\, dS^{\\top} Q W'],
  additive: ['dQ_i = s \\textstyle\\sum_j dS_{ij}\\, W_q u_{ij}', 'dK_j = s \\textstyle\\sum_i dS_{ij}\\, W_k u_{ij}'],
  concat: ['dQ_i = s \\big(\\textstyle\\sum_j dS_{ij}\\big) w_q = 0', 'dK_j = s \\big(\\textstyle\\sum_i dS_{ij}\\big) w_k'],
};
GRADIENT_TEX['scaled-dot'] = GRADIENT_TEX.dot;

function scaleTex({ state }) {
  const base = state.scale === null ? (state.scoring === 'scaled-dot' ? '\\tfrac{1}{\\sqrt{d}}' : '1') : 's';
  return state.temperature === 1 ? base : `${base} / \\tau`;
}

/** The loss with its derivative: what the d-output (O against Y) or d-projected (Y against Y*) card shows. */
function lossTex(kind, out = 'O') {
  const y = out === 'O' ? 'Y' : 'Y^{*}';
  return kind === 'mean'
    ? `L = \\tfrac{1}{n}\\sum (${out} - ${y})^2,\\quad \\partial L/\\partial ${out} = \\tfrac{2}{n}(${out} - ${y})`
    : `L = \\tfrac12\\sum (${out} - ${y})^2,\\quad \\partial L/\\partial ${out} = ${out} - ${y}`;
}

const batchSuffix = (ctx, cell) => (ctx.result.sizes.B > 1 ? t(ctx.lang, 'explain.batch', { batch: cell.batch }) : '');

const TEX = {
  x: {
    formula: () => 'X \\in \\mathbb{R}^{T \\times d_{\\text{in}}}',
    explain: (ctx, cell) => explainInput(ctx, cell, t(ctx.lang, 'explain.x', { col: cell.col + 1, token: ctx.state.tokens[cell.row] })),
  },
  rope: {
    formula: (ctx) =>
      ctx.state.rope === 'interleaved'
        ? '(x_{2c}, x_{2c+1}) \\mapsto R(i\\,\\theta_c)\\,(x_{2c}, x_{2c+1}),\\ \\theta_c = \\text{base}^{-2c/d}'
        : '(x_c, x_{c+d/2}) \\mapsto R(i\\,\\theta_c)\\,(x_c, x_{c+d/2}),\\ \\theta_c = \\text{base}^{-2c/d}',
    explain: (ctx, cell) => {
      const [letter, rotated, label] = ROPE_PARTS[cell.run];
      return rotated
        ? explainRotation(letter, ctx, cell)
        : explainInput(ctx, cell, t(ctx.lang, 'explain.before-rotation', { label, row: cell.row + 1, col: cell.col + 1 }));
    },
  },
  params: {
    formula: () => 'a(q, k;\\, \\theta)',
    explain: (ctx, cell) =>
      explainInput(
        ctx,
        cell,
        t(ctx.lang, 'explain.param', {
          scoring: t(ctx.lang, `site.scoring.${cell.scoring}`),
          name: NAMES[cell.param] ?? cell.param,
          row: cell.row + 1,
          col: cell.col + 1,
        }),
      ),
  },
  scores: { formula: (ctx) => SCORE_TEX[ctx.state.scoring], explain: explainScore },
  scaled: { formula: (ctx) => `\\tilde S = S \\cdot ${scaleTex(ctx)}`, explain: explainScaled },
  alibi: {
    // The paper's slopes have a closed form; a list given in the link has none to show.
    formula: (ctx) =>
      `B_{ij} = -m_h\\,\\lvert i + (T_k - T_q) - j \\rvert,\\quad ${ctx.state.alibi === 'paper' ? 'm_h = 2^{-8(h+1)/H}' : `m_h\\ \\text{${t(ctx.lang, 'explain.given')}}`}`,
    explain: explainBias,
  },
  masked: {
    formula: (ctx) => `Z = \\tilde S${ctx.state.alibi !== 'off' ? ' + B' : ''} + M,\\quad M_{ij} \\in \\{0, -\\infty\\}`,
    explain: explainMasked,
  },
  weights: { formula: () => "P_{ij} = \\dfrac{e^{Z_{ij}}}{\\sum_{j'} e^{Z_{ij'}}}", explain: explainWeight },
  output: { formula: () => 'O = P V', explain: explainOutput },
  'concat-output': { formula: () => '[O] = [\\,O^{(1)} \\cdots O^{(H)}\\,]', explain: explainConcat },
  wo: {
    formula: () => 'W^O \\in \\mathbb{R}^{H d_v \\times d_{\\text{in}}}',
    explain: (ctx, cell) =>
      explainInput(
        ctx,
        cell,
        t(ctx.lang, 'explain.wo', {
          head: Math.floor(cell.row / ctx.result.sizes.dv) + 1,
          f: (cell.row % ctx.result.sizes.dv) + 1,
          col: cell.col + 1,
        }),
      ),
  },
  'projected-output': {
    formula: (ctx) => (ctx.state.wo ? 'Y = [\\,O^{(1)} \\cdots O^{(H)}\\,]\\, W^O' : 'Y = [\\,O^{(1)} \\cdots O^{(H)}\\,]'),
    explain: explainProjected,
  },
  'd-projected': { formula: (ctx) => lossTex(ctx.state.backward.loss, 'Y'), explain: explainDProjected },
  dwo: { formula: () => 'dW^O = [O]^{\\top} dY', explain: explainDWo },
  target: {
    formula: (ctx) => (hasLayerOutput(ctx) ? 'Y^{*} \\in \\mathbb{R}^{T \\times d_{\\text{out}}}' : 'Y \\in \\mathbb{R}^{T_q \\times d_v}'),
    explain: (ctx, cell) => explainInput(ctx, cell, t(ctx.lang, 'explain.target', { row: cell.row + 1, col: cell.col + 1 })),
  },
  'd-output': {
    formula: (ctx) =>
      hasLayerOutput(ctx) ? (ctx.state.wo ? 'dO^{(h)} = dY\\, (W^O_{h})^{\\top}' : 'dO^{(h)} = dY_{:,\\,h}') : lossTex(ctx.state.backward.loss),
    explain: (ctx, cell) => (hasLayerOutput(ctx) ? explainHeadShare(ctx, cell) : backward.explainDOutput(ctx, cell)),
  },
  'd-weights': { formula: () => 'dP = dO\\, V^{\\top}', explain: backward.explainDWeights },
  'd-scores': { formula: () => 'dS = P \\odot (dP - D),\\ \\ D_i = \\textstyle\\sum_j P_{ij}\\, dP_{ij}', explain: backward.explainDScores },
  dq: { formula: (ctx) => GRADIENT_TEX[ctx.result.backward.scoring][0], explain: backward.explainDQuery },
  dk: { formula: (ctx) => GRADIENT_TEX[ctx.result.backward.scoring][1], explain: backward.explainDKey },
  dv: { formula: () => 'dV = P^{\\top} dO', explain: backward.explainDValue },
};

// W^Q, W^K, W^V (their widths d_q, d_q, d_v) and Q, K, V: projections of X in a 'self' state,
// given inputs otherwise.
for (const [id, symbol, width] of [
  ['wq', 'W^Q', 'd_q'],
  ['wk', 'W^K', 'd_q'],
  ['wv', 'W^V', 'd_v'],
]) {
  const letter = id[1];
  TEX[id] = {
    formula: () => `${symbol} \\in \\mathbb{R}^{d_{\\text{in}} \\times ${width}}`,
    explain: (ctx, cell) => explainInput(ctx, cell, t(ctx.lang, 'explain.weight-entry', { noun: ctx.stage.noun, row: cell.row + 1, col: cell.col + 1 })),
  };
  TEX[letter] = {
    formula: (ctx) => (isSelf(ctx) ? `${letter.toUpperCase()} = X ${symbol}` : `${letter.toUpperCase()}\\ \\text{${t(ctx.lang, 'explain.given')}}`),
    explain: (ctx, cell) =>
      isSelf(ctx)
        ? explainProjection(letter, id, ctx, cell)
        : explainInput(ctx, cell, t(ctx.lang, 'explain.input-entry', { noun: ctx.stage.noun, row: cell.row + 1, col: cell.col + 1 }) + batchSuffix(ctx, cell)),
  };
}

for (const [id, tex, from, fromTex] of WEIGHT_GRADIENTS) {
  TEX[id] = {
    formula: () => `${tex} = X^{\\top} ${fromTex}`,
    explain: (ctx, cell) => backward.explainDWeight(ctx, cell, { id, tex, from, fromTex }),
  };
}

/** The stage's formula as TeX (its symbol when the explorer has none for it). */
export function formulaOf(stage, ctx) {
  return TEX[stage.id]?.formula(ctx) ?? stage.tex ?? stage.title;
}

/** Whether a number of this stage can be explained. */
export const explainable = (stage) => Boolean(TEX[stage?.id]?.explain);

/** The explanation of one number: ctx = { state, result, head }, cell from cellIdentity(). */
export function explainCell(stage, ctx, cell) {
  return TEX[stage.id].explain({ ...ctx, stage }, cell);
}
