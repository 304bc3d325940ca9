// Stages X, Wq, Wk, Wv (editable inputs of a 'self' state) and Q, K, V (projections, or the
// given inputs of a 'qkv' state, then editable).
import { registerStage } from './registry.js';
import { explainInput, explainProjection } from '../../site/explain/projection.js';
import { groupLeader } from '../state/model.js';
import { headInstance, isSelf, tokenLabels } from './common.js';

const WEIGHTS = [
  ['wq', 'W^Q', 'query weights', 'd_q'],
  ['wk', 'W^K', 'key weights', 'd_q'],
  ['wv', 'W^V', 'value weights', 'd_v'],
];

const PROJECTIONS = [
  ['q', 'Q', 'queries', 'wq', 'W^Q'],
  ['k', 'K', 'keys', 'wk', 'W^K'],
  ['v', 'V', 'values', 'wv', 'W^V'],
];

/** 'Shared by heads 1–2 (kv head 1).' when the shown head's K and V serve a group of heads. */
function sharedBy({ state, head }) {
  if (!isSelf({ state }) || state.kvHeads === state.heads) return null;
  const size = state.heads / state.kvHeads;
  const leader = groupLeader(head, state.heads, state.kvHeads);
  return `Shared by heads ${leader + 1}–${leader + size} (kv head ${leader / size + 1} of ${state.kvHeads}).`;
}

export function registerInputStages() {
  registerStage({
    id: 'x',
    group: 'input',
    title: 'X',
    noun: 'token embeddings',
    kind: 'signed',
    available: isSelf,
    editable: () => true,
    formula: () => 'X \\in \\mathbb{R}^{T \\times d_{\\text{in}}}',
    caption: () => 'Each row is one token’s vector. Edit any number.',
    instances: (ctx) => [{ tensor: ctx.result.x, rowLabels: ctx.state.tokens, attrs: { 'data-head': 0, 'data-run': 0 } }],
    explain: (ctx, cell) => explainInput(ctx, cell, `Feature ${cell.col + 1} of token “${ctx.state.tokens[cell.row]}”`),
  });
  for (const [id, symbol, noun, width] of WEIGHTS) {
    registerStage({
      id,
      group: 'weights',
      title: symbol.replace('^', ''),
      tex: symbol,
      noun,
      kind: 'signed',
      available: isSelf,
      editable: () => true,
      formula: () => `${symbol} \\in \\mathbb{R}^{d_{\\text{in}} \\times ${width}}`,
      instances: (ctx) => headInstance(ctx, id),
      explain: (ctx, cell) => explainInput(ctx, cell, `${noun}: input feature ${cell.row + 1} → output feature ${cell.col + 1}`),
    });
  }
  for (const [id, symbol, noun, weight, weightTex] of PROJECTIONS) {
    registerStage({
      id,
      group: 'qkv',
      title: symbol,
      tex: symbol,
      noun,
      kind: 'signed',
      editable: (ctx) => !isSelf(ctx),
      formula: (ctx) => (isSelf(ctx) ? `${symbol} = X ${weightTex}` : `${symbol}\\ \\text{given}`),
      caption: (ctx) => (id === 'q' ? null : sharedBy(ctx)),
      // With RoPE on, Q and K here are the projections; the rope stage shows them rotated.
      instances: (ctx) => headInstance(ctx, id, id === 'q' ? tokenLabels(ctx.state).queries : tokenLabels(ctx.state).keys, { projected: true }),
      explain: (ctx, cell) => (isSelf(ctx)
        ? explainProjection(id, weight, ctx, cell)
        : explainInput(ctx, cell, `${noun}: row ${cell.row + 1}, feature ${cell.col + 1}${ctx.result.sizes.B > 1 ? ` (batch ${cell.batch + 1})` : ''}`)),
    });
  }
}
