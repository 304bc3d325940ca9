// The backward pass as stages: the target, dL/dY of the layer's output (when it is not one head's
// O) and the shown head's dL/dO (band "Loss"), dP, dS, dQ, dK, dV (band "Gradients"), and dW^Q,
// dW^K, dW^V, dW^O for 'self' states (band "Weight gradients"), one matrix per run (scoring) like
// the forward stages. The tensors come from compute/backward.js (the core's attentionBackward,
// with dP and dS in JS); each card's caption says how far the core's numbers (of the first
// scoring) are from the chain rule worked out in JS, or from the API layer's own backward().
import { registerGroup, registerStage } from './registry.js';
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
    label: runs.length > 1 ? run.scoring : null,
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
  return `${lead} ${ok ? 'Checked' : 'MISMATCH'}: ${a.against} gives the same numbers to ${a.diff === 0 ? 'the last bit' : a.diff.toExponential(1)}.`;
}

function registerLossStages() {
  registerStage({
    id: TARGET,
    group: 'loss',
    title: 'Y',
    noun: 'target',
    kind: 'signed',
    available: hasBackward,
    editable: () => true,
    caption: () => 'What the output should be. Edit any number; Train fits the output to it.',
    instances: targetInstance,
  });
  registerStage({
    id: D_PROJECTED,
    group: 'loss',
    title: 'dY',
    noun: 'layer output gradient',
    kind: 'signed',
    available: (ctx) => hasBackward(ctx) && hasLayerOutput(ctx),
    caption: (ctx) => `L = ${ctx.result.backward.loss.toPrecision(6)} (${ctx.state.backward.loss === 'mean' ? 'mean' : 'half the sum'} of the squared errors of the layer’s output).`,
    instances: (ctx) => instance(ctx, 'dY', { rows: 'queries' }),
  });
  registerStage({
    id: D_OUTPUT,
    group: 'loss',
    title: 'dO',
    noun: 'output gradient',
    kind: 'signed',
    available: hasBackward,
    caption: (ctx) => (hasLayerOutput(ctx)
      ? `Head ${ctx.head + 1}’s share of dY: ${ctx.state.wo ? `dY (Wᴼ)ᵀ, its ${ctx.result.sizes.dv} columns` : `its ${ctx.result.sizes.dv} columns of dY`}.`
      : `L = ${ctx.result.backward.loss.toPrecision(6)} (${ctx.state.backward.loss === 'mean' ? 'mean' : 'half the sum'} of the squared errors).`),
    instances: (ctx) => instance(ctx, 'dO'),
  });
}

const checkedByChainRule = (what) => (ctx) => agreementCaption(ctx, what, 'From the core’s attentionBackward.');

// [id, title, noun, caption(ctx), which tensor and labels]
const GRADIENTS = [
  [D_WEIGHTS, 'dP', 'weight gradient',
    () => 'How the loss changes with each attention weight (masked ones do not matter: their P is 0).',
    ['dP', { cols: 'keys', masked: true }]],
  [D_SCORES, 'dS', 'score gradient',
    () => 'The softmax backward, row by row. Each row sums to 0; masked scores get 0.',
    ['dS', { cols: 'keys', masked: true }]],
  [DQ, 'dQ', 'query gradient', checkedByChainRule('dQ'), ['dq', {}]],
  [DK, 'dK', 'key gradient', checkedByChainRule('dK'), ['dk', { rows: 'keys' }]],
  [DV, 'dV', 'value gradient', checkedByChainRule('dV'), ['dv', { rows: 'keys' }]],
];

function registerGradientStages() {
  for (const [id, title, noun, caption, [tensor, labels]] of GRADIENTS) {
    registerStage({
      id, group: 'gradients', title, noun, kind: 'signed', available: hasBackward, caption,
      instances: (ctx) => instance(ctx, tensor, labels),
    });
  }
}

// [id, symbol, the gradient it comes from (stage id, symbol), noun]: exported for the explorer's
// formulas and explanations of these cards.
export const WEIGHT_GRADIENTS = [[DWQ, 'dW^Q', DQ, 'dQ', 'query weight gradient'], [DWK, 'dW^K', DK, 'dK', 'key weight gradient'], [DWV, 'dW^V', DV, 'dV', 'value weight gradient']];

/** "Heads 1–2 share it: Train steps along their sum." under dW^K and dW^V of grouped heads. */
function groupNote({ state }) {
  return state.kvHeads < state.heads ? ` Heads share it in groups of ${state.heads / state.kvHeads}: Train steps along the group’s sum.` : '';
}

function registerWeightGradientStages() {
  for (const [id, tex, from, fromTex, noun] of WEIGHT_GRADIENTS) {
    registerStage({
      id,
      group: 'weight-gradients',
      title: tex.replace('^', ''),
      tex,
      noun,
      kind: 'signed',
      available: (ctx) => hasBackward(ctx) && isSelf(ctx),
      caption: (ctx) => agreementCaption(ctx, tex, `${fromTex.slice(1)} = X·W${fromTex.slice(1).toLowerCase()}, so the chain rule gives Xᵀ·${fromTex}.${id === DWQ ? '' : groupNote(ctx)}`),
      instances: (ctx) => instance(ctx, id, { rows: null }),
    });
  }
  registerStage({
    id: DWO,
    group: 'weight-gradients',
    title: 'dWO',
    tex: 'dW^O',
    noun: 'output weight gradient',
    kind: 'signed',
    available: (ctx) => hasBackward(ctx) && Boolean(ctx.state.wo),
    caption: (ctx) => agreementCaption(ctx, 'dW^O', 'Y = [O₁ … O_H]·Wᴼ, so the chain rule gives [O₁ … O_H]ᵀ·dY (the first scoring’s, which Train follows).'),
    instances: (ctx) => [{ tensor: ctx.result.backward.training.wo, attrs: { 'data-head': 0, 'data-run': 0 } }],
  });
}

export function registerBackwardStages() {
  registerGroup({ id: 'loss', title: 'Loss', lede: 'Compare the output with a target: the squared error and its gradient.' });
  registerGroup({ id: 'gradients', title: 'Backward through attention', lede: 'The gradient flows back through P V, the softmax and the scores.' });
  registerGroup({ id: 'weight-gradients', title: 'Weight gradients', lede: 'What one SGD step subtracts (times the learning rate).' });
  registerLossStages();
  registerGradientStages();
  registerWeightGradientStages();
}
