// Stages scores (a(q_i, k_j), unscaled), scaled and masked.
import { registerStage, stageText } from './registry.js';
import { maskedFlags, runInstances } from './common.js';

export function registerScoreStages() {
  registerStage({
    id: 'scores',
    group: 'scores',
    title: 'S',
    kind: 'signed',
    caption: () => stageText('stage.scores.caption'),
    instances: (ctx) => runInstances(ctx, (run) => run.raw),
  });
  registerStage({
    id: 'scaled',
    group: 'scores',
    title: 'S̃',
    kind: 'signed',
    caption: (ctx) => stageText(ctx.state.scoring === 'scaled-dot' ? 'stage.scaled.caption-scaled-dot' : 'stage.scaled.caption'),
    instances: (ctx) => runInstances(ctx, (run) => run.scaled),
  });
  registerStage({
    id: 'masked',
    group: 'scores',
    title: 'Z',
    kind: 'signed',
    caption: (ctx) => stageText(ctx.state.maskFill === 'd2l' ? 'stage.masked.caption-d2l' : 'stage.masked.caption'),
    instances: (ctx) => runInstances(ctx, (run) => run.masked, { masked: maskedFlags(ctx.result) }),
  });
}
