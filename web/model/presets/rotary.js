// Rotary positions as Hugging Face's Llama applies them (pairs (c, c + d/2)) on 4 tokens of width
// 4 with base 100 so that both pairs visibly turn: the same token at two positions scores
// differently against the same key.
export default {
  id: 'rotary',
  make: () => ({
    source: 'self',
    tokens: ['a', 'b', 'a', 'b'],
    x: [
      [1, 0, 0.5, 0],
      [0, 1, 0, 0.5],
      [1, 0, 0.5, 0],
      [0, 1, 0, 0.5],
    ],
    wq: [
      [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ],
    ],
    wk: [
      [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ],
    ],
    wv: [
      [
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
      ],
    ],
    scoring: 'scaled-dot',
    causal: 'top-left',
    rope: 'halves',
    ropeBase: 100,
  }),
};
