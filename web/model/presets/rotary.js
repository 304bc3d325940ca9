// Rotary positions as Hugging Face's Llama applies them (pairs (c, c + d/2)) on 4 tokens of width
// 4 with base 100 so that both pairs visibly turn: the same token at two positions scores
// differently against the same key.
export default {
  id: 'rotary',
  title: 'Rotary (RoPE)',
  summary: '4 tokens, width 4, RoPE on Q and K (halves, base 100): scores depend on the distance.',
  make: () => ({
    source: 'self',
    tokens: ['a', 'b', 'a', 'b'],
    x: [[1, 0, 0.5, 0], [0, 1, 0, 0.5], [1, 0, 0.5, 0], [0, 1, 0, 0.5]],
    wq: [[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]],
    wk: [[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]],
    wv: [[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]],
    scoring: 'scaled-dot',
    causal: 'top-left',
    rope: 'halves',
    ropeBase: 100,
  }),
};
