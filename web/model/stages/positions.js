// Stages of issue 12's positions: the ALiBi bias of the shown head (when ALiBi is on), and Q, K
// before and after the rotary rotation (when RoPE is on).
import { registerStage } from './registry.js';
import { tokenLabels } from './common.js';

// The rope stage's four matrices, in order: [letter, rotated?, label].
export const ROPE_PARTS = [['q', false, 'Q'], ['q', true, 'RoPE(Q)'], ['k', false, 'K'], ['k', true, 'RoPE(K)']];

export function registerPositionStages() {
  registerStage({
    id: 'rope',
    group: 'qkv',
    title: 'RoPE',
    noun: 'rotated queries and keys',
    kind: 'signed',
    available: (ctx) => ctx.state.rope !== 'off',
    caption: () => 'Row i turns each pair of features by i θ: hover a rotated entry for its angle.',
    instances: (ctx) => {
      const head = ctx.result.heads[ctx.head];
      const { queries, keys } = tokenLabels(ctx.state);
      return ROPE_PARTS.map(([letter, rotated, label], r) => ({
        tensor: rotated ? head[letter] : head.projected[letter],
        label,
        rowLabels: letter === 'q' ? queries : keys,
        attrs: { 'data-head': ctx.head, 'data-run': r, 'data-part': rotated ? `${letter}-rotated` : letter },
      }));
    },
  }, { after: 'v' });
  registerStage({
    id: 'alibi',
    group: 'scores',
    title: 'B',
    noun: 'ALiBi bias',
    kind: 'signed',
    available: (ctx) => ctx.state.alibi !== 'off',
    caption: (ctx) => `Head ${ctx.head + 1}’s slope m = ${ctx.result.heads[ctx.head].slope}: the farther the key, the lower its score.`,
    instances: (ctx) => {
      const { queries, keys } = tokenLabels(ctx.state);
      return [{ tensor: ctx.result.heads[ctx.head].bias, rowLabels: queries, colLabels: keys, attrs: { 'data-head': ctx.head, 'data-run': 0 } }];
    },
  }, { after: 'scaled' });
}
