// The backward pass from the state's loss, for every run (scoring) of the shown head, and for
// every head of the first run (what Train steps along):
//   Y           the layer's output: one head's O ('qkv', or one head without W^O), else the heads'
//               outputs side by side through W^O (output-projection.js)
//   dY          dL/dY of the squared error against the target (loss.js)
//   dO_h        head h's part of dY: dY (W^O)^T, columns h d_v .. (h + 1) d_v - 1 (dY's without W^O)
//   dQ, dK, dV  from the core: attn.attentionBackward(q, k, v, dO_h, the forward's options)
//   dP = dO V^T, D_i = sum_j P_ij dP_ij, dS = P * (dP - D)    the intermediates, in JS, shown
//               (dS is the gradient of the scaled scores: 0 where a key is masked)
//   dWq = X^T dQ, dWk = X^T dK, dWv = X^T dV   ('self' states: Q = X Wq, so the chain rule;
//               with RoPE, Q = rope(X Wq): dQ goes back through ropeBackward first)
//   dWo = concat^T dY
// and how well the pieces agree: the core's dQ, dK against the chain rule through dS
// (score-grads.js), dV against P^T dO, and the weight gradients against the API's own layer
// backward() whenever a layer computes the state (layers.js): multiHeadAttention (every head, the
// groups' summed dWk, dWv, and dWo), or selfAttention for one head without W^O.
import { forwardOptions, multiHeadOptions, selfLayerOptions, withLayer } from './layers.js';
import { largestDifference, largestMagnitude, product } from './linear.js';
import { squaredError } from './loss.js';
import { ropeOptions } from './positions.js';
import { scoringOptions } from './run.js';
import { scoreGradients } from './score-grads.js';
import { fromNested, sideBySide } from './tensors.js';
import { groupLeader } from '../state/model.js';

/** D (B, Tq) and dS (B, Tq, Tk) from P, dP and which keys are visible. */
function scoreGradient(P, dP, visible) {
  const [B, Tq, Tk] = P.shape;
  const D = new Float32Array(B * Tq);
  const dS = new Float32Array(P.data.length);
  for (let r = 0; r < B * Tq; r++) {
    let sum = 0;
    for (let j = 0; j < Tk; j++) sum += P.data[r * Tk + j] * dP.data[r * Tk + j];
    D[r] = sum;
    for (let j = 0; j < Tk; j++) {
      const k = r * Tk + j;
      dS[k] = visible[k] ? P.data[k] * (dP.data[k] - sum) : 0;
    }
  }
  return { D: { data: D, shape: [B, Tq] }, dS: { data: dS, shape: [B, Tq, Tk] } };
}

/**
 * One line of the agreement table: the largest difference and the largest entry it is measured
 * against (at least 1: a gradient that should be 0, like concat's dQ, is judged absolutely).
 */
function agreement(what, against, ours, theirs) {
  const { diff } = largestDifference(ours, theirs);
  return { what, against, diff, size: Math.max(1, largestMagnitude(ours), largestMagnitude(theirs)) };
}

/** Columns from .. from + width - 1 of a (1, T, C) tensor: (1, T, width). */
function columns(t, from, width) {
  const [, T, C] = t.shape;
  const data = new Float32Array(T * width);
  for (let i = 0; i < T; i++) data.set(t.data.subarray(i * C + from, i * C + from + width), i * width);
  return { data, shape: [1, T, width] };
}

/** The last two axes of a product (x^T g is (1, d_in, d): the weight's (d_in, d)). */
const matrixOf = (t) => ({ data: t.data, shape: t.shape.slice(-2) });

/** Elementwise sum of same-shaped tensors. */
function sum(tensors) {
  const data = new Float32Array(tensors[0].data.length);
  for (const t of tensors) for (let k = 0; k < data.length; k++) data[k] += t.data[k];
  return { data, shape: tensors[0].shape.slice() };
}

/** Head h's backward under run r, given its dO: the core's dQ, dK, dV, the intermediates, dW. */
function headBackward(attn, state, result, h, r, dO) {
  const head = result.heads[h];
  const run = head.runs[r];
  const d = head.q.shape.at(-1);
  const { scale, options } = scoringOptions(state, run.scoring, d);
  const core = attn.attentionBackward(head.q, head.k, head.v, dO, { ...options, ...head.masks });
  const dP = product(dO, head.v, { opB: 't' });
  const { D, dS } = scoreGradient(run.weights, dP, result.visible);
  const chain = scoreGradients(run.scoring, head.q, head.k, dS, scale, state.params[run.scoring], run.params);
  const agreements = [
    agreement('dQ', 'the chain rule through dS', core.dq, chain.dq),
    agreement('dK', 'the chain rule through dS', core.dk, chain.dk),
    agreement('dV', 'P^T dO', core.dv, product(run.weights, dO, { opA: 't' })),
  ];
  const record = { dO, dP, D, dS, dq: core.dq, dk: core.dk, dv: core.dv, scale, scoring: run.scoring, agreements };
  if (state.source === 'self') {
    const rope = ropeOptions(state);
    const unrotate = (grad) => (rope ? attn.ropeBackward(grad, rope) : grad);
    // dQ, dK of the projections X Wq, X Wk (before the rotation): what dW sums (the explanations show them).
    record.unrotated = { dq: unrotate(core.dq), dk: unrotate(core.dk) };
    record.dwq = matrixOf(product(result.x, record.unrotated.dq, { opA: 't' }));
    record.dwk = matrixOf(product(result.x, record.unrotated.dk, { opA: 't' }));
    record.dwv = matrixOf(product(result.x, core.dv, { opA: 't' }));
  }
  return record;
}

/** The loss of run r and dL/dY; dO of head h from dY (through W^O when there is one). */
function lossOf(state, result, r, target) {
  const y = result.projected ? result.projected[r].output : result.heads[0].runs[r].output;
  const { loss, dO: dY } = squaredError(y, target, state.backward.loss);
  const wo = state.wo ? fromNested(state.wo) : null;
  const dConcat = wo ? product(dY, wo, { opB: 't' }) : dY;
  const dv = result.heads[0].v.shape.at(-1);
  const headGrad = (h) => (result.projected ? columns(dConcat, h * dv, dv) : dY);
  return { loss, dY, headGrad };
}

/**
 * Every head's weight gradients under run 0, as one SGD step needs them: dWq per head, dWk and dWv
 * summed over each group (heads of a group share them), dWo; checked against a layer's backward.
 */
function trainingGradients(attn, state, result, first, headGrad, dY) {
  const H = result.heads.length;
  const perHead = result.heads.map((_, h) => (h === state.head ? first : headBackward(attn, state, result, h, 0, headGrad(h))));
  const groupSum = (name) =>
    perHead.map((_, h) => {
      const leader = groupLeader(h, H, state.kvHeads);
      return sum(perHead.slice(leader, leader + H / state.kvHeads).map((g) => g[name]));
    });
  const grads = {
    wq: perHead.map((g) => g.dwq),
    wk: groupSum('dwk'),
    wv: groupSum('dwv'),
    wo: state.wo ? matrixOf(product(result.projected[0].concat, dY, { opA: 't' })) : null,
  };
  const layer = layerGradients(attn, state, result, dY);
  if (layer) {
    const kv = (list) => list.filter((_, h) => groupLeader(h, H, state.kvHeads) === h);
    const ours = { dwq: sideBySide(grads.wq), dwk: sideBySide(kv(grads.wk)), dwv: sideBySide(kv(grads.wv)), dwo: grads.wo };
    for (const [name, what] of [
      ['dwq', 'dW^Q'],
      ['dwk', 'dW^K'],
      ['dwv', 'dW^V'],
      ['dwo', 'dW^O'],
    ]) {
      if (ours[name] && layer.grads[name]) first.agreements.push(agreement(what, `${layer.kind}.backward()`, ours[name], layer.grads[name]));
    }
  }
  return grads;
}

/** The API layer's own weight gradients for run 0, or null when no layer computes the state. */
function layerGradients(attn, state, result, dY) {
  const scoring = result.heads[0].runs[0].scoring;
  const multi = multiHeadOptions(state, scoring);
  const single = !state.wo && result.heads.length === 1 ? selfLayerOptions(state, 0, scoring) : null;
  const [kind, options] = multi ? ['multiHeadAttention', multi] : single ? ['selfAttention', single] : [];
  if (!kind) return null;
  const grads = withLayer(attn, kind, options, (layer) => {
    layer.forward(result.x, forwardOptions(state));
    return layer.backward(dY);
  });
  return { kind, grads };
}

/**
 * -> { ...the record of run 0, runs: [record per run], loss, lossKind, target, dY, training? }
 * A run's record: { loss, dY, dO, dP, D, dS, dq, dk, dv, dwq?, dwk?, dwv?, unrotated?: { dq, dk },
 * scale, scoring, agreements } of the shown head; training (run 0, 'self'): { wq, wk, wv: [per head], wo }.
 */
export function backwardPass(attn, state, result) {
  const target = fromNested(state.backward.target);
  let training = null;
  const runs = result.heads[state.head].runs.map((_, r) => {
    const { loss, dY, headGrad } = lossOf(state, result, r, target);
    const record = { loss, dY, ...headBackward(attn, state, result, state.head, r, headGrad(state.head)) };
    if (r === 0 && state.source === 'self') training = trainingGradients(attn, state, result, record, headGrad, dY);
    return record;
  });
  return { ...runs[0], runs, lossKind: state.backward.loss, target, training };
}
