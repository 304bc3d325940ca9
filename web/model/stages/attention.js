// Stages weights (softmax of each masked row) and output (weights times V).
import { registerStage } from './registry.js';
import { maskedFlags, runInstances } from './common.js';

export function registerAttentionStages() {
  registerStage({
    id: 'weights',
    group: 'attention',
    title: 'P',
    noun: 'attention weights',
    kind: 'weights',
    caption: () => 'Each row sums to 1 (or is all zero when every key is hidden).',
    instances: (ctx) => runInstances(ctx, (run) => run.weights, { masked: maskedFlags(ctx.result) }),
  });
  registerStage({
    id: 'output',
    group: 'attention',
    title: 'O',
    noun: 'output',
    kind: 'signed',
    caption: () => 'Row i is a mix of the value rows, weighted by row i of P.',
    instances: (ctx) => runInstances(ctx, (run) => run.output, { colLabels: null }),
  });
}
