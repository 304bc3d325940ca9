// Stages of issue 12's positions: the ALiBi bias of the shown head (when ALiBi is on), and Q, K
// before and after the rotary rotation (when RoPE is on).
import { registerStage, stageText } from './registry.js';
import { tokenLabels } from './common.js';

// The rope stage's four matrices, in order: [letter, rotated?, label].
export const ROPE_PARTS = [
  ['q', false, 'Q'],
  ['q', true, 'RoPE(Q)'],
  ['k', false, 'K'],
  ['k', true, 'RoPE(K)'],
];

export function registerPositionStages() {
  registerStage(
    {
      id: 'rope',
      group: 'qkv',
      title: 'RoPE',
      kind: 'signed',
      available: (ctx) => ctx.state.rope !== 'off',
      caption: () => stageText('stage.rope.caption'),
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
    },
    { after: 'v' },
  );
  registerStage(
    {
      id: 'alibi',
      group: 'scores',
      title: 'B',
      kind: 'signed',
      available: (ctx) => ctx.state.alibi !== 'off',
      caption: (ctx) => stageText('stage.alibi.caption', { head: ctx.head, slope: ctx.result.heads[ctx.head].slope }),
      instances: (ctx) => {
        const { queries, keys } = tokenLabels(ctx.state);
        return [{ tensor: ctx.result.heads[ctx.head].bias, rowLabels: queries, colLabels: keys, attrs: { 'data-head': ctx.head, 'data-run': 0 } }];
      },
    },
    { after: 'scaled' },
  );
}
