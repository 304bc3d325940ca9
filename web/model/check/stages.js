// The steps of scaled dot-product self-attention as a check follows them, in the row-vector
// notation of the explorer (Q = X W^Q): what each stage is computed from, how, and the common
// mistakes a hand calculation makes there, each recomputed the wrong way so a check can name the
// one that matches. Matrices are rows of numbers: x (T, d_in), wq, wk (d_in, d), wv (d_in, d_v),
// q, k (T, d), v (T, d_v), scores, scaled, masked, weights (Tq, Tk), output (Tq, d_v).
// context: { scaled: true for scaled-dot (false: the dot product, no scale), scale (the one
// applied), d (the width the scale divides by), visible[i][j] (key j visible from query i),
// fill (what a hidden score becomes: -Infinity, or d2l's -1e6), bias: ALiBi's (Tq, Tk) or null }.
//   { id, from: [stage ids], compute(values, context) -> matrix,
//     source(i, j) -> [[stage, 'row' | 'col' | 'cell', index...]]: what cell (i, j) is made of,
//     mistakes: [[id, (values, context) -> matrix | null (not possible at these sizes)]] }
import { mapCells, matmul, softmaxColumns, softmaxRows, transpose } from './algebra.js';

const isSquare = (m) => m.length === m[0].length;

/** The hidden scores filled, ALiBi's bias added to the visible ones. */
const masked = (m, c) => mapCells(m, (x, i, j) => (c.visible[i][j] ? x + (c.bias?.[i][j] ?? 0) : c.fill));
const hasHiddenKeys = (c) => c.visible.some((row) => row.some((v) => !v));

/** A projection x W; with a square W, the column-vector notation of some tutorials (q = W x) reads x Wᵀ. */
const projection = (id, weights) => ({
  id,
  from: ['x', weights],
  compute: (v) => matmul(v.x, v[weights]),
  source: (i, j) => [
    ['x', 'row', i],
    [weights, 'col', j],
  ],
  mistakes: [['column-notation', (v) => (isSquare(v[weights]) ? matmul(v.x, transpose(v[weights])) : null)]],
});

export const CHECK_STAGES = [
  projection('q', 'wq'),
  projection('k', 'wk'),
  projection('v', 'wv'),
  {
    id: 'scores',
    from: ['q', 'k'],
    compute: (v) => matmul(v.q, transpose(v.k)),
    source: (i, j) => [
      ['q', 'row', i],
      ['k', 'row', j],
    ],
    mistakes: [
      ['k-not-transposed', (v) => matmul(v.q, v.k)],
      ['column-notation', (v) => matmul(transpose(v.q), v.k)], // Qᵀ K: queries and keys as columns
    ],
  },
  {
    id: 'scaled',
    from: ['scores'],
    compute: (v, c) => mapCells(v.scores, (x) => x * c.scale),
    source: (i, j) => [['scores', 'cell', i, j]],
    mistakes: [
      ['no-scaling', (v, c) => (c.scaled ? v.scores : null)],
      ['scaled-by-d', (v, c) => (c.scaled ? mapCells(v.scores, (x) => x / c.d) : null)],
    ],
  },
  {
    id: 'masked',
    from: ['scaled'],
    compute: (v, c) => masked(v.scaled, c),
    source: (i, j) => [['scaled', 'cell', i, j]],
    mistakes: [],
  },
  {
    id: 'weights',
    from: ['masked'],
    compute: (v) => softmaxRows(v.masked),
    source: (i) => [['masked', 'row', i]],
    mistakes: [
      ['softmax-columns', (v) => softmaxColumns(v.masked)],
      // Softmax over every key, then the hidden ones set to 0: the rows no longer sum to 1.
      [
        'mask-after-softmax',
        (v, c) =>
          hasHiddenKeys(c)
            ? mapCells(softmaxRows(masked(v.scaled, { ...c, visible: c.visible.map((row) => row.map(() => true)) })), (p, i, j) => (c.visible[i][j] ? p : 0))
            : null,
      ],
      // The scaling mistakes again, for a student who went from the scores straight to the weights.
      ['no-scaling', (v, c) => (c.scaled ? softmaxRows(masked(v.scores, c)) : null)],
      [
        'scaled-by-d',
        (v, c) =>
          c.scaled
            ? softmaxRows(
                masked(
                  mapCells(v.scores, (x) => x / c.d),
                  c,
                ),
              )
            : null,
      ],
    ],
  },
  {
    id: 'output',
    from: ['weights', 'v'],
    compute: (v) => matmul(v.weights, v.v),
    source: (i, j) => [
      ['weights', 'row', i],
      ['v', 'col', j],
    ],
    mistakes: [
      ['wrong-order', (v) => matmul(v.v, v.weights)],
      ['weights-transposed', (v) => matmul(transpose(v.weights), v.v)],
    ],
  },
];

/** A stage checked against its exact value alone: nothing before it is followed through. */
export const givenStage = (id, exact) => ({ id, from: [], compute: () => exact, source: () => [], mistakes: [] });
