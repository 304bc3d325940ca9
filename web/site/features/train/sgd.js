// One SGD step on the state, as seed 004's Java code does it (weights -= learningRate * grad):
// 'self' states train the shown head's Wq, Wk, Wv; 'qkv' states (no weights) train Q, K, V
// themselves. The gradients come from compute/backward.js, i.e. from the core.

/** The state's trained matrices: [state key, gradient name in the backward record]. */
export function trainedLeaves(state) {
  return state.source === 'self' ? [['wq', 'dwq'], ['wk', 'dwk'], ['wv', 'dwv']] : [['q', 'dq'], ['k', 'dk'], ['v', 'dv']];
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
  for (const [key, grad] of trainedLeaves(state)) {
    if (state.source === 'self') {
      next[key] = state[key].map((w, h) => (h === state.head ? descend(w, backward[grad].data, rate) : w));
    } else {
      next[key] = descend(state[key], backward[grad].data, rate);
    }
  }
  return next;
}
