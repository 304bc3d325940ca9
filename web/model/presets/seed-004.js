// seed 004 (a Java walk-through of self-attention): 3 tokens of width 2, Wq = I, and the
// causal mask its code applies (the Causal control shows both: docs/semantics.md has both outputs).
// Its code also trains the weights by SGD; the target below gives the Train button a goal.
export default {
  id: 'seed-004',
  make: () => ({
    source: 'self',
    tokens: ['Token1', 'Token2', 'Token3'],
    x: [
      [1, 2],
      [0, 1],
      [3, 1],
    ],
    wq: [
      [
        [1, 0],
        [0, 1],
      ],
    ],
    wk: [
      [
        [1, 1],
        [0, 1],
      ],
    ],
    wv: [
      [
        [1, 0],
        [1, 1],
      ],
    ],
    scoring: 'scaled-dot',
    causal: 'none',
    // Each token should come out as its own value row (V at the start): training pulls the
    // attention from token 3 towards the diagonal.
    backward: {
      target: [
        [
          [3, 2],
          [1, 1],
          [4, 1],
        ],
      ],
      learningRate: 0.05,
    },
  }),
};
