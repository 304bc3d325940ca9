// The layer's output (band "Heads to output"): W^O, the heads' outputs side by side and the output
// through W^O (compute/output-projection.js), for 'self' states with several heads or a W^O.
import { registerGroup, registerStage, scoringName, stageText } from './registry.js';
import { hasLayerOutput, tokenLabels } from './common.js';

/** One instance per run of result.projected[r][name]. */
function projectedInstances(ctx, name) {
  const runs = ctx.result.projected;
  return runs.map((run, r) => ({
    tensor: run[name],
    label: runs.length > 1 ? scoringName(run.scoring) : null,
    rowLabels: tokenLabels(ctx.state).queries,
    attrs: { 'data-head': 0, 'data-run': r, 'data-scoring': run.scoring },
  }));
}

/** "Head h" labels of W^O's rows: feature c of head h. */
function woRowLabels({ result }) {
  const { H, dv } = result.sizes;
  return Array.from({ length: H * dv }, (_, f) => (H > 1 ? `h${Math.floor(f / dv) + 1}·${(f % dv) + 1}` : `${f + 1}`));
}

/** "multiHeadAttention gives these numbers; the product in JS agrees to 2e-7." */
function layerNote(ctx) {
  const first = ctx.result.projected[0];
  if (!first.layer) return stageText('stage.projected-output.caption-js');
  const diff = first.agreement.diff;
  return stageText('stage.projected-output.caption-layer', { diff: diff === 0 ? stageText('stage.last-bit') : diff.toExponential(1) });
}

export function registerOutputStages() {
  registerGroup({ id: 'output' }, { after: 'attention' });
  registerStage({
    id: 'concat-output',
    group: 'output',
    title: '[O]',
    kind: 'signed',
    available: (ctx) => hasLayerOutput(ctx) && ctx.state.heads > 1,
    caption: () => stageText('stage.concat-output.caption'),
    instances: (ctx) => projectedInstances(ctx, 'concat'),
  });
  registerStage({
    id: 'wo',
    group: 'output',
    title: 'WO',
    tex: 'W^O',
    kind: 'signed',
    available: (ctx) => Boolean(ctx.state.source === 'self' && ctx.state.wo),
    editable: () => true,
    caption: () => stageText('stage.wo.caption'),
    instances: (ctx) => [
      {
        tensor: { data: Float32Array.from(ctx.state.wo.flat()), shape: [ctx.state.wo.length, ctx.state.wo[0].length] },
        rowLabels: woRowLabels(ctx),
        attrs: { 'data-head': 0, 'data-run': 0 },
      },
    ],
  });
  registerStage({
    id: 'projected-output',
    group: 'output',
    title: 'Y',
    kind: 'signed',
    available: hasLayerOutput,
    caption: layerNote,
    instances: (ctx) => projectedInstances(ctx, 'output'),
  });
}
