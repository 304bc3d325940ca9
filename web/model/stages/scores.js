// Stages scores (a(q_i, k_j), unscaled), scaled and masked.
import { registerStage } from './registry.js';
import { explainMasked } from '../../site/explain/mask.js';
import { explainScaled, explainScore } from '../../site/explain/scores.js';
import { maskedFlags, runInstances } from './common.js';

const SCORE_TEX = {
  dot: 'S = Q K^{\\top}',
  'scaled-dot': 'S = Q K^{\\top}',
  general: 'S_{ij} = q_i^{\\top} W\\, k_j',
  additive: 'S_{ij} = w_v^{\\top} \\tanh(q_i W_q + k_j W_k)',
  concat: 'S_{ij} = w^{\\top} [\\,q_i ; k_j\\,]',
};

function scaleTex({ state }) {
  const base = state.scale === null ? (state.scoring === 'scaled-dot' ? '\\tfrac{1}{\\sqrt{d}}' : '1') : 's';
  return state.temperature === 1 ? base : `${base} / \\tau`;
}

export function registerScoreStages() {
  registerStage({
    id: 'scores',
    group: 'scores',
    title: 'S',
    noun: 'raw scores',
    kind: 'signed',
    formula: (ctx) => SCORE_TEX[ctx.state.scoring],
    caption: () => 'Row i, column j: how well query i matches key j. Click a score to mask it.',
    instances: (ctx) => runInstances(ctx, (run) => run.raw),
    explain: explainScore,
  });
  registerStage({
    id: 'scaled',
    group: 'scores',
    title: 'S̃',
    noun: 'scaled scores',
    kind: 'signed',
    formula: (ctx) => `\\tilde S = S \\cdot ${scaleTex(ctx)}`,
    caption: (ctx) => (ctx.state.scoring === 'scaled-dot' ? 'Dividing by √d keeps the softmax from saturating as d grows.' : 'The scale (and temperature) multiply every score.'),
    instances: (ctx) => runInstances(ctx, (run) => run.scaled),
    explain: explainScaled,
  });
  registerStage({
    id: 'masked',
    group: 'scores',
    title: 'Z',
    noun: 'masked scores',
    kind: 'signed',
    formula: (ctx) => (ctx.state.alibi === 'paper' ? 'Z = \\tilde S + B + M,\\quad M_{ij} \\in \\{0, -\\infty\\}' : 'Z = \\tilde S + M,\\quad M_{ij} \\in \\{0, -\\infty\\}'),
    caption: (ctx) => (ctx.state.maskFill === 'd2l' ? 'Hidden keys get d2l’s −10⁶, so an all-hidden row turns uniform.' : 'Hidden keys get −∞: their weight will be exactly 0.'),
    instances: (ctx) => runInstances(ctx, (run) => run.masked, { masked: maskedFlags(ctx.result) }),
    explain: explainMasked,
  });
}
