// ALiBi (Press et al. 2022) on 5 tokens and 2 heads with the paper's slopes, 2^-4 and 2^-8, and
// the causal mask the paper trains with: head 1 fades far keys fast, head 2 slowly.
export default {
  id: 'alibi',
  make: () => ({
    source: 'self',
    tokens: ['t1', 't2', 't3', 't4', 't5'],
    x: [
      [1, 0],
      [0, 1],
      [1, 1],
      [0.5, -1],
      [2, 1],
    ],
    wq: [
      [
        [1, 0],
        [0, 1],
      ],
      [
        [0.5, 0],
        [0, 0.5],
      ],
    ],
    wk: [
      [
        [1, 0],
        [0, 1],
      ],
      [
        [1, 1],
        [0, 1],
      ],
    ],
    wv: [
      [
        [1, 0],
        [0, 1],
      ],
      [
        [1, 0],
        [1, 1],
      ],
    ],
    scoring: 'scaled-dot',
    causal: 'top-left',
    alibi: 'paper',
    // Train fits both heads and Wᴼ to a seeded target: a smaller step than one head's.
    backward: { learningRate: 0.01 },
  }),
};
