// seed 001 (d2l, "attention scoring functions"): keys all ones (2, 10, 2), values arange(40)
// as (1, 10, 4) repeated twice, valid lengths [2, 6]. Identical keys give uniform weights over
// the visible keys, so additive and dot-product attention both output [[2, 3, 4, 5]] and
// [[10, 11, 12, 13]] whatever the queries. d2l's additive example uses queries of width 20;
// here both scorings share queries of width 2 (the keys' width), which changes nothing visible.
import { randomMatrix } from '../state/random.js';

const values = Array.from({ length: 10 }, (_, j) => [0, 1, 2, 3].map((c) => 4 * j + c));

export default {
  id: 'd2l',
  make: () => ({
    source: 'qkv',
    seed: 1,
    tokens: ['query'],
    keyTokens: values.map((_, j) => `k${j + 1}`),
    q: [randomMatrix(1, 'd2l.q0', 1, 2), randomMatrix(1, 'd2l.q1', 1, 2)],
    k: [0, 1].map(() => values.map(() => [1, 1])),
    v: [values, values],
    validLens: { per: 'batch', lens: [2, 6] },
    maskFill: 'd2l',
    scoring: 'additive',
    compare: ['scaled-dot'],
    hidden: 8,
  }),
};
