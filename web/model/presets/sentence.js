// A short sentence with token labels, small seeded embeddings (width 4) and two heads, so the
// heatmap and link views have words to show.
import { randomMatrix } from '../state/random.js';

const words = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
const seed = 6;
const heads = (name, dOut) => [0, 1].map((h) => randomMatrix(seed, `${name}${h}`, 4, dOut, { sd: 0.7, decimals: 2 }));

export default {
  id: 'sentence',
  make: () => ({
    source: 'self',
    seed,
    tokens: words,
    x: randomMatrix(seed, 'x', words.length, 4, { sd: 1, decimals: 2 }),
    wq: heads('wq', 2),
    wk: heads('wk', 2),
    wv: heads('wv', 2),
    scoring: 'scaled-dot',
    causal: 'top-left',
    // Train fits every head and Wᴼ to a seeded target; steeper than one head alone, so a small step.
    backward: { learningRate: 0.003 },
  }),
};
