// Stages X, Wq, Wk, Wv (editable inputs of a 'self' state) and Q, K, V (projections, or the
// given inputs of a 'qkv' state, then editable).
import { registerStage } from './registry.js';
import { groupLeader } from '../state/model.js';
import { headInstance, isSelf, tokenLabels } from './common.js';

// [id, symbol, noun]: the explorer keys its formulas and explanations by these ids.
const WEIGHTS = [
  ['wq', 'W^Q', 'query weights'],
  ['wk', 'W^K', 'key weights'],
  ['wv', 'W^V', 'value weights'],
];

const PROJECTIONS = [
  ['q', 'Q', 'queries'],
  ['k', 'K', 'keys'],
  ['v', 'V', 'values'],
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
    caption: () => 'Each row is one token’s vector. Edit any number.',
    instances: (ctx) => [{ tensor: ctx.result.x, rowLabels: ctx.state.tokens, attrs: { 'data-head': 0, 'data-run': 0 } }],
  });
  for (const [id, symbol, noun] of WEIGHTS) {
    registerStage({
      id,
      group: 'weights',
      title: symbol.replace('^', ''),
      tex: symbol,
      noun,
      kind: 'signed',
      available: isSelf,
      editable: () => true,
      instances: (ctx) => headInstance(ctx, id),
    });
  }
  for (const [id, symbol, noun] of PROJECTIONS) {
    registerStage({
      id,
      group: 'qkv',
      title: symbol,
      tex: symbol,
      noun,
      kind: 'signed',
      editable: (ctx) => !isSelf(ctx),
      caption: (ctx) => (id === 'q' ? null : sharedBy(ctx)),
      // With RoPE on, Q and K here are the projections; the rope stage shows them rotated.
      instances: (ctx) => headInstance(ctx, id, id === 'q' ? tokenLabels(ctx.state).queries : tokenLabels(ctx.state).keys, { projected: true }),
    });
  }
}
