// One SGD step on the state, as seed 004's Java code does it (weights -= learningRate * grad):
// 'self' states train every head's Wq, Wk, Wv and W^O (grouped heads step their shared Wk, Wv
// along the group's summed gradient, so they stay shared); 'qkv' states (no weights) train Q, K, V
// themselves. The gradients come from compute/backward.js, i.e. from the core, checked against
// the API layer's own backward() whenever a layer computes the state.

/** The state's trained matrices: [state key, its gradient in the backward record]. */
export function trainedLeaves(state) {
  if (state.source !== 'self')
    return [
      ['q', (bw) => bw.dq.data],
      ['k', (bw) => bw.dk.data],
      ['v', (bw) => bw.dv.data],
    ];
  const perHead = (key) => (bw) => bw.training[key].map((g) => g.data);
  return [['wq', perHead('wq')], ['wk', perHead('wk')], ['wv', perHead('wv')], ...(state.wo ? [['wo', (bw) => bw.training.wo.data]] : [])];
}

// 7 significant digits: about float32's precision, and short in the link.
const keep = (x) => Number(x.toPrecision(7)) + 0;

/** matrix (R, C) or stack (B, R, C) minus rate * gradient (same size, row-major data). */
function descend(values, gradient, rate) {
  let k = 0;
  const walk = (v) => (Array.isArray(v) ? v.map(walk) : keep(v - rate * gradient[k++]));
  return walk(values);
}

/** A new state one SGD step further along `backward`'s gradients (the record of that same state). */
export function sgdStep(state, backward, rate = state.backward.learningRate) {
  const next = { ...state };
  for (const [key, gradientOf] of trainedLeaves(state)) {
    const grad = gradientOf(backward);
    // Per-head weights: a list of gradients, one per head; otherwise one gradient.
    next[key] = Array.isArray(grad) ? state[key].map((w, h) => descend(w, grad[h], rate)) : descend(state[key], grad, rate);
  }
  return next;
}
