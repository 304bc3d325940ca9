// The layer's output (band "Heads to output"): W^O, the heads' outputs side by side and the output
// through W^O (compute/output-projection.js), for 'self' states with several heads or a W^O.
import { registerGroup, registerStage } from './registry.js';
import { hasLayerOutput, tokenLabels } from './common.js';

/** One instance per run of result.projected[r][name]. */
function projectedInstances(ctx, name) {
  const runs = ctx.result.projected;
  return runs.map((run, r) => ({
    tensor: run[name],
    label: runs.length > 1 ? run.scoring : null,
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
  if (!first.layer) return 'The product in JS (float64 sums); no multiHeadAttention layer computes this example (it needs Wᴼ, d_in = H·d = H·d_v and scaled-dot scores at the default scale).';
  const diff = first.agreement.diff;
  return `From the core’s multiHeadAttention layer; the product in JS gives the same numbers to ${diff === 0 ? 'the last bit' : diff.toExponential(1)}.`;
}

export function registerOutputStages() {
  registerGroup({ id: 'output', title: 'Heads to output', lede: 'The heads’ outputs side by side, then Wᴼ back to the model’s width.' }, { after: 'attention' });
  registerStage({
    id: 'concat-output',
    group: 'output',
    title: '[O]',
    noun: 'heads side by side',
    kind: 'signed',
    available: (ctx) => hasLayerOutput(ctx) && ctx.state.heads > 1,
    caption: () => 'Row i: every head’s output row i, head 1 first.',
    instances: (ctx) => projectedInstances(ctx, 'concat'),
  });
  registerStage({
    id: 'wo',
    group: 'output',
    title: 'WO',
    tex: 'W^O',
    noun: 'output weights',
    kind: 'signed',
    available: (ctx) => Boolean(ctx.state.source === 'self' && ctx.state.wo),
    editable: () => true,
    caption: () => 'Learned like Wq, Wk, Wv: the rows of block h read head h’s output.',
    instances: (ctx) => [{ tensor: { data: Float32Array.from(ctx.state.wo.flat()), shape: [ctx.state.wo.length, ctx.state.wo[0].length] }, rowLabels: woRowLabels(ctx), attrs: { 'data-head': 0, 'data-run': 0 } }],
  });
  registerStage({
    id: 'projected-output',
    group: 'output',
    title: 'Y',
    noun: 'layer output',
    kind: 'signed',
    available: hasLayerOutput,
    caption: layerNote,
    instances: (ctx) => projectedInstances(ctx, 'output'),
  });
}
