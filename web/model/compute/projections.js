// Q, K, V of each head from X and its weights, computed by the core: a selfAttention layer
// with the head's Wq, Wk, Wv, whose forward trace holds Q = X Wq, K = X Wk, V = X Wv exactly as
// the wasm core computes them (float32).
import { fromNested } from './tensors.js';

/** -> [{ wq, wk, wv, q, k, v }] per head; q, k: (1, T, d), v: (1, T, dv). */
export function projectHeads(attn, state) {
  const x = fromNested([state.x]);
  return state.wq.map((_, h) => {
    const weights = { wq: fromNested(state.wq[h]), wk: fromNested(state.wk[h]), wv: fromNested(state.wv[h]) };
    const layer = attn.selfAttention({ ...weights, scale: 1 });
    try {
      const { trace } = layer.forward(x, { trace: true });
      return { ...weights, q: trace.q, k: trace.k, v: trace.v };
    } finally {
      layer.dispose();
    }
  });
}

/** The given Q, K, V of a 'qkv' state, as one head. */
export function givenHead(state) {
  return { q: fromNested(state.q), k: fromNested(state.k), v: fromNested(state.v) };
}
