// The backward pass of the shown head's attention (its first scoring) from the state's loss:
//   dO          dL/dO of the squared error against the target (loss.js)
//   dQ, dK, dV  from the core: attn.attentionBackward(q, k, v, dO, the forward's options)
//   dP = dO V^T, D_i = sum_j P_ij dP_ij, dS = P * (dP - D)    the intermediates, in JS, shown
//               (dS is the gradient of the scaled scores: 0 where a key is masked)
//   dWq = X^T dQ, dWk = X^T dK, dWv = X^T dV   ('self' states: Q = X Wq, so the chain rule;
//               with RoPE, Q = rope(X Wq): dQ goes back through ropeBackward first)
// and how well the pieces agree: the core's dQ, dK against the chain rule through dS
// (score-grads.js), dV against P^T dO, and dW against a selfAttention layer's own backward()
// whenever the state is such a layer (dot-product scoring, no hand-masked cells, zero rows).
import { largestDifference, largestMagnitude, product } from './linear.js';
import { squaredError } from './loss.js';
import { scoringOptions } from './run.js';
import { fromNested } from './tensors.js';
import { ropeOptions, windowOption } from './positions.js';
import { scoreGradients } from './score-grads.js';

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

/** The state as a selfAttention layer's options, or null when no layer computes it. */
function layerSetup(state, head, run) {
  const dotProduct = run.scoring === 'dot' || run.scoring === 'scaled-dot';
  if (state.source !== 'self' || !dotProduct || state.maskedCells.length > 0 || state.maskFill !== 'zero') return null;
  const lens = state.validLens;
  const window = windowOption(state);
  const rope = ropeOptions(state);
  const positions = {
    ...(window ? { window } : {}),
    ...(head.slope === undefined ? {} : { alibi: [head.slope] }),
    ...(rope ? { rope } : {}),
  };
  return {
    options: { scale: run.scale, ...(state.causal === 'none' ? {} : { causal: state.causal }), ...positions },
    forward: { trace: false, ...(lens ? { validLens: lens.lens } : {}) },
  };
}

/** dWq, dWk, dWv of the shown head from a selfAttention layer with its weights (the API's own chain rule). */
function layerGradients(attn, state, head, setup, dO) {
  const layer = attn.selfAttention({ wq: head.wq, wk: head.wk, wv: head.wv, ...setup.options });
  try {
    layer.forward(fromNested([state.x]), setup.forward);
    return layer.backward(dO);
  } finally {
    layer.dispose();
  }
}

/** -> the backward record described above, for result.heads[state.head].runs[0]. */
export function backwardPass(attn, state, result) {
  const head = result.heads[state.head];
  const run = head.runs[0];
  const target = fromNested(state.backward.target);
  const { loss, dO } = squaredError(run.output, target, state.backward.loss);
  const d = head.q.shape.at(-1);
  const { scale, options } = scoringOptions(state, run.scoring, d);
  const { masks } = head;
  const core = attn.attentionBackward(head.q, head.k, head.v, dO, { ...options, ...masks });
  const dP = product(dO, head.v, { opB: 't' });
  const { D, dS } = scoreGradient(run.weights, dP, result.visible);
  const chain = scoreGradients(run.scoring, head.q, head.k, dS, scale, state.params[run.scoring], run.params);
  const agreements = [
    agreement('dQ', 'the chain rule through dS', core.dq, chain.dq),
    agreement('dK', 'the chain rule through dS', core.dk, chain.dk),
    agreement('dV', 'P^T dO', core.dv, product(run.weights, dO, { opA: 't' })),
  ];
  const record = { loss, lossKind: state.backward.loss, target, dO, dP, D, dS, dq: core.dq, dk: core.dk, dv: core.dv, scale, scoring: run.scoring, agreements };
  if (state.source === 'self') {
    const x = result.x;
    const rope = ropeOptions(state);
    const unrotate = (grad) => (rope ? attn.ropeBackward(grad, rope) : grad);
    record.dwq = product(x, unrotate(core.dq), { opA: 't' });
    record.dwk = product(x, unrotate(core.dk), { opA: 't' });
    record.dwv = product(x, core.dv, { opA: 't' });
    for (const t of [record.dwq, record.dwk, record.dwv]) t.shape = t.shape.slice(-2);
    const setup = layerSetup(state, head, run);
    if (setup) {
      const layer = layerGradients(attn, state, head, setup, dO);
      for (const [name, what] of [['dwq', 'dW^Q'], ['dwk', 'dW^K'], ['dwv', 'dW^V']]) {
        agreements.push(agreement(what, 'selfAttention.backward()', record[name], layer[name]));
      }
    }
  }
  return record;
}
