// Stages scores (a(q_i, k_j), unscaled), scaled and masked.
import { registerStage } from './registry.js';
import { maskedFlags, runInstances } from './common.js';

export function registerScoreStages() {
  registerStage({
    id: 'scores',
    group: 'scores',
    title: 'S',
    noun: 'raw scores',
    kind: 'signed',
    caption: () => 'Row i, column j: how well query i matches key j. Click a score to mask it.',
    instances: (ctx) => runInstances(ctx, (run) => run.raw),
  });
  registerStage({
    id: 'scaled',
    group: 'scores',
    title: 'S̃',
    noun: 'scaled scores',
    kind: 'signed',
    caption: (ctx) => (ctx.state.scoring === 'scaled-dot' ? 'Dividing by √d keeps the softmax from saturating as d grows.' : 'The scale (and temperature) multiply every score.'),
    instances: (ctx) => runInstances(ctx, (run) => run.scaled),
  });
  registerStage({
    id: 'masked',
    group: 'scores',
    title: 'Z',
    noun: 'masked scores',
    kind: 'signed',
    caption: (ctx) => (ctx.state.maskFill === 'd2l' ? 'Hidden keys get d2l’s −10⁶, so an all-hidden row turns uniform.' : 'Hidden keys get −∞: their weight will be exactly 0.'),
    instances: (ctx) => runInstances(ctx, (run) => run.masked, { masked: maskedFlags(ctx.result) }),
  });
}
