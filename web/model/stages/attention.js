// Stages weights (softmax of each masked row) and output (weights times V).
import { registerStage, stageText } from './registry.js';
import { maskedFlags, runInstances } from './common.js';

export function registerAttentionStages() {
  registerStage({
    id: 'weights',
    group: 'attention',
    title: 'P',
    kind: 'weights',
    caption: () => stageText('stage.weights.caption'),
    instances: (ctx) => runInstances(ctx, (run) => run.weights, { masked: maskedFlags(ctx.result) }),
  });
  registerStage({
    id: 'output',
    group: 'attention',
    title: 'O',
    kind: 'signed',
    caption: () => stageText('stage.output.caption'),
    instances: (ctx) => runInstances(ctx, (run) => run.output, { colLabels: null }),
  });
}
