// A sliding window as Mistral uses it: each of 6 tokens sees itself and the 2 tokens before it
// (window [2, 0]: the causal mask cut to a band), with the identity projections so Q = K = V = X.
export default {
  id: 'sliding-window',
  make: () => ({
    source: 'self',
    tokens: ['the', 'cat', 'sat', 'on', 'the', 'mat'],
    x: [
      [1, 0],
      [0, 1],
      [1, 1],
      [2, 0],
      [1, 0],
      [0, 2],
    ],
    wq: [
      [
        [1, 0],
        [0, 1],
      ],
    ],
    wk: [
      [
        [1, 0],
        [0, 1],
      ],
    ],
    wv: [
      [
        [1, 0],
        [0, 1],
      ],
    ],
    scoring: 'scaled-dot',
    window: [2, 0],
  }),
};
