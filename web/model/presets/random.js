// Random (seeded): a fresh example each time the preset is picked (the seed is part of the
// state, so the link still reproduces it).
import { randomMatrix } from '../state/random.js';

export default {
  id: 'random',
  make: ({ seed = 7 } = {}) => ({
    source: 'self',
    seed,
    tokens: ['t1', 't2', 't3', 't4'],
    x: randomMatrix(seed, 'x', 4, 3, { decimals: 1 }),
    wq: [randomMatrix(seed, 'wq', 3, 3, { decimals: 1 })],
    wk: [randomMatrix(seed, 'wk', 3, 3, { decimals: 1 })],
    wv: [randomMatrix(seed, 'wv', 3, 3, { decimals: 1 })],
    scoring: 'scaled-dot',
  }),
};
