// Stages X, Wq, Wk, Wv (editable inputs of a 'self' state) and Q, K, V (projections, or the
// given inputs of a 'qkv' state, then editable).
import { registerStage, stageText } from './registry.js';
import { groupLeader } from '../state/model.js';
import { headInstance, isSelf, tokenLabels } from './common.js';

// [id, symbol]: the explorer keys its formulas and explanations by these ids (nouns: 'stage.<id>.noun').
const WEIGHTS = [
  ['wq', 'W^Q'],
  ['wk', 'W^K'],
  ['wv', 'W^V'],
];

const PROJECTIONS = [
  ['q', 'Q'],
  ['k', 'K'],
  ['v', 'V'],
];

/** 'Shared by heads 0–1 (kv head 0; 1 in all).', heads counted from 0 as everywhere, when the shown head's K and V serve a group of heads. */
function sharedBy({ state, head }) {
  if (!isSelf({ state }) || state.kvHeads === state.heads) return null;
  const size = state.heads / state.kvHeads;
  const leader = groupLeader(head, state.heads, state.kvHeads);
  return stageText('stage.k.shared', { first: leader, last: leader + size - 1, group: leader / size, groups: state.kvHeads });
}

export function registerInputStages() {
  registerStage({
    id: 'x',
    group: 'input',
    title: 'X',
    kind: 'signed',
    available: isSelf,
    editable: () => true,
    caption: () => stageText('stage.x.caption'),
    instances: (ctx) => [{ tensor: ctx.result.x, rowLabels: ctx.state.tokens, attrs: { 'data-head': 0, 'data-run': 0 } }],
  });
  for (const [id, symbol] of WEIGHTS) {
    registerStage({
      id,
      group: 'weights',
      title: symbol.replace('^', ''),
      tex: symbol,
      kind: 'signed',
      available: isSelf,
      editable: () => true,
      instances: (ctx) => headInstance(ctx, id),
    });
  }
  for (const [id, symbol] of PROJECTIONS) {
    registerStage({
      id,
      group: 'qkv',
      title: symbol,
      tex: symbol,
      kind: 'signed',
      editable: (ctx) => !isSelf(ctx),
      caption: (ctx) => (id === 'q' ? null : sharedBy(ctx)),
      // With RoPE on, Q and K here are the projections; the rope stage shows them rotated.
      instances: (ctx) => headInstance(ctx, id, id === 'q' ? tokenLabels(ctx.state).queries : tokenLabels(ctx.state).keys, { projected: true }),
    });
  }
}
