// Decoding with a KV cache, as a Llama-style decoder generates: 5 tokens fed one at a time, each
// attending to the keys and values cached so far (causal, bottom-right), rotary positions on Q
// and K, and 2 query heads sharing 1 kv head (multi-query attention), then Wᴼ. The explorer opens
// its Generate stepper, which checks every cached step against the full forward's row.
import { randomMatrix } from '../state/random.js';

const seed = 12;
const tokens = ['<s>', 'the', 'cat', 'sat', 'down'];
const shared = (name) => randomMatrix(seed, name, 4, 2, { sd: 0.7, decimals: 2 });

export default {
  id: 'decode',
  opens: 'generate',
  make: () => ({
    source: 'self',
    seed,
    tokens,
    x: randomMatrix(seed, 'x', tokens.length, 4, { sd: 1, decimals: 2 }),
    wq: [0, 1].map((h) => randomMatrix(seed, `wq${h}`, 4, 2, { sd: 0.7, decimals: 2 })),
    wk: [shared('wk'), shared('wk')],
    wv: [shared('wv'), shared('wv')],
    wo: randomMatrix(seed, 'wo', 4, 4, { sd: 0.7, decimals: 2 }),
    kvHeads: 1,
    scoring: 'scaled-dot',
    causal: 'bottom-right',
    rope: 'halves',
    ropeBase: 100,
    backward: { learningRate: 0.01 },
  }),
};
