// The backward pass as stages: the target, dL/dY of the layer's output (when it is not one head's
// O) and the shown head's dL/dO (band "Loss"), dP, dS, dQ, dK, dV (band "Gradients"), and dW^Q,
// dW^K, dW^V, dW^O for 'self' states (band "Weight gradients"), one matrix per run (scoring) like
// the forward stages. The tensors come from compute/backward.js (the core's attentionBackward,
// with dP and dS in JS); each card's caption says how far the core's numbers (of the first
// scoring) are from the chain rule worked out in JS, or from the API layer's own backward().
import { registerGroup, registerStage, scoringName, stageText } from './registry.js';
import { BACKWARD_STAGES } from './groups.js';
import { hasLayerOutput, isSelf, maskedFlags, tokenLabels } from './common.js';

// The stage ids, from the one list (groups.js) the figures read without loading this file.
const [TARGET, D_PROJECTED, D_OUTPUT] = BACKWARD_STAGES.loss;
const [D_WEIGHTS, D_SCORES, DQ, DK, DV] = BACKWARD_STAGES.gradients;
const [DWQ, DWK, DWV, DWO] = BACKWARD_STAGES['weight-gradients'];

const hasBackward = (ctx) => Boolean(ctx.result.backward && !ctx.result.backward.error);

/** A backward tensor of the shown head, one instance per run (scoring), as the forward stages have. */
function instance(ctx, name, { rows = 'queries', cols = null, masked = false } = {}) {
  const labels = tokenLabels(ctx.state);
  const { runs } = ctx.result.backward;
  return runs.map((run, r) => ({
    tensor: run[name],
    label: runs.length > 1 ? scoringName(run.scoring) : null,
    rowLabels: rows ? labels[rows] : null,
    colLabels: cols ? labels[cols] : null,
    masked: masked ? maskedFlags(ctx.result) : null,
    attrs: { 'data-head': ctx.head, 'data-run': r, 'data-scoring': run.scoring },
  }));
}

/** The target: one matrix (the same for every run). */
const targetInstance = (ctx) => [{ tensor: ctx.result.backward.target, rowLabels: ctx.state.tokens, attrs: { 'data-head': ctx.head, 'data-run': 0 } }];

/** "The chain rule through dS agrees to 2.7e-6": the agreement line of a gradient. */
function agreementCaption(ctx, what, lead) {
  const a = ctx.result.backward.agreements.find((x) => x.what === what);
  if (!a) return lead;
  // float32 sums of products, with cancellation: 1e-3 of the largest entry is still rounding.
  const ok = a.diff <= 1e-3 * a.size;
  // compute/backward.js names what it checked against: the chain rule in words, else code (P^T dO, selfAttention.backward()).
  const against = a.against === 'the chain rule through dS' ? stageText('stage.against-chain-rule') : a.against;
  return stageText(ok ? 'stage.agreement' : 'stage.agreement-mismatch', {
    lead,
    against,
    diff: a.diff === 0 ? stageText('stage.last-bit') : a.diff.toExponential(1),
  });
}

function registerLossStages() {
  registerStage({
    id: TARGET,
    group: 'loss',
    title: 'Y',
    kind: 'signed',
    available: hasBackward,
    editable: () => true,
    caption: () => stageText('stage.target.caption'),
    instances: targetInstance,
  });
  registerStage({
    id: D_PROJECTED,
    group: 'loss',
    title: 'dY',
    kind: 'signed',
    available: (ctx) => hasBackward(ctx) && hasLayerOutput(ctx),
    caption: (ctx) =>
      stageText(ctx.state.backward.loss === 'mean' ? 'stage.loss-mean' : 'stage.loss-half-sum', { loss: ctx.result.backward.loss.toPrecision(6) }),
    instances: (ctx) => instance(ctx, 'dY', { rows: 'queries' }),
  });
  registerStage({
    id: D_OUTPUT,
    group: 'loss',
    title: 'dO',
    kind: 'signed',
    available: hasBackward,
    caption: (ctx) =>
      hasLayerOutput(ctx)
        ? stageText(ctx.state.wo ? 'stage.d-output.caption-layer' : 'stage.d-output.caption-columns', { head: ctx.head + 1, columns: ctx.result.sizes.dv })
        : stageText(ctx.state.backward.loss === 'mean' ? 'stage.d-output.loss-mean' : 'stage.d-output.loss-half-sum', {
            loss: ctx.result.backward.loss.toPrecision(6),
          }),
    instances: (ctx) => instance(ctx, 'dO'),
  });
}

const checkedByChainRule = (what) => (ctx) => agreementCaption(ctx, what, stageText('stage.chain-rule'));

// [id, title, caption(ctx), which tensor and labels]
const GRADIENTS = [
  [D_WEIGHTS, 'dP', () => stageText('stage.d-weights.caption'), ['dP', { cols: 'keys', masked: true }]],
  [D_SCORES, 'dS', () => stageText('stage.d-scores.caption'), ['dS', { cols: 'keys', masked: true }]],
  [DQ, 'dQ', checkedByChainRule('dQ'), ['dq', {}]],
  [DK, 'dK', checkedByChainRule('dK'), ['dk', { rows: 'keys' }]],
  [DV, 'dV', checkedByChainRule('dV'), ['dv', { rows: 'keys' }]],
];

function registerGradientStages() {
  for (const [id, title, caption, [tensor, labels]] of GRADIENTS) {
    registerStage({
      id,
      group: 'gradients',
      title,
      kind: 'signed',
      available: hasBackward,
      caption,
      instances: (ctx) => instance(ctx, tensor, labels),
    });
  }
}

// [id, symbol, the gradient it comes from (stage id, symbol)]: exported for the explorer's
// formulas and explanations of these cards.
export const WEIGHT_GRADIENTS = [
  [DWQ, 'dW^Q', DQ, 'dQ'],
  [DWK, 'dW^K', DK, 'dK'],
  [DWV, 'dW^V', DV, 'dV'],
];

/** "Heads 1–2 share it: Train steps along their sum." under dW^K and dW^V of grouped heads. */
function groupNote({ state }) {
  return state.kvHeads < state.heads ? stageText('stage.weight-gradient.grouped', { size: state.heads / state.kvHeads }) : '';
}

function registerWeightGradientStages() {
  for (const [id, tex, , fromTex] of WEIGHT_GRADIENTS) {
    registerStage({
      id,
      group: 'weight-gradients',
      title: tex.replace('^', ''),
      tex,
      kind: 'signed',
      available: (ctx) => hasBackward(ctx) && isSelf(ctx),
      caption: (ctx) =>
        agreementCaption(
          ctx,
          tex,
          stageText('stage.weight-gradient.caption', { projection: fromTex.slice(1), weights: `W${fromTex.slice(1).toLowerCase()}`, gradient: fromTex }) +
            (id === DWQ ? '' : groupNote(ctx)),
        ),
      instances: (ctx) => instance(ctx, id, { rows: null }),
    });
  }
  registerStage({
    id: DWO,
    group: 'weight-gradients',
    title: 'dWO',
    tex: 'dW^O',
    kind: 'signed',
    available: (ctx) => hasBackward(ctx) && Boolean(ctx.state.wo),
    caption: (ctx) => agreementCaption(ctx, 'dW^O', stageText('stage.dwo.caption')),
    instances: (ctx) => [{ tensor: ctx.result.backward.training.wo, attrs: { 'data-head': 0, 'data-run': 0 } }],
  });
}

export function registerBackwardStages() {
  for (const id of ['loss', 'gradients', 'weight-gradients']) registerGroup({ id });
  registerLossStages();
  registerGradientStages();
  registerWeightGradientStages();
}
