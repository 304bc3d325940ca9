// The seed-002 example, written once for every suite that uses it (unit, e2e, embed): a Chinese
// self-attention tutorial's three tokens X (3, 4) and projections W^Q, W^K, W^V (4, 3), the same
// numbers as the Illustrated-Self-Attention example people paste in, and the text's own worked
// numbers (Step 1 to Step 4) as it prints them. The text slips in X W^Q (row 1 times column 2 is 1,
// it prints 0; row 3 times column 2 is 2, it prints 1), so everything after Q is off too.
// The explorer's preset (web/model/presets/seed-002.js) holds the same numbers; the tests keep this
// copy of their own so that no expected value is taken from the code under test.

/** The inputs as rows: x (3, 4); wq, wk, wv (4, 3), one head. */
export const SEED_002 = {
  x: [
    [1, 0, 1, 0],
    [0, 2, 0, 2],
    [1, 1, 1, 1],
  ],
  wq: [
    [1, 0, 1],
    [1, 0, 0],
    [0, 1, 0],
    [0, 1, 1],
  ],
  wk: [
    [0, 1, 1],
    [1, 0, 1],
    [0, 1, 0],
    [1, 0, 0],
  ],
  wv: [
    [0, 0, 1],
    [1, 1, 0],
    [0, 1, 0],
    [1, 0, 1],
  ],
};

/**
 * The text's numbers for every stage (3, 3), digits as printed: strings, since '0.20' and '2.0'
 * say how precise the text claims to be.
 */
export const SEED_002_PRINTED = {
  q: [
    ['1', '0', '1'],
    ['2', '2', '2'],
    ['2', '1', '2'],
  ],
  k: [
    ['0', '1', '1'],
    ['4', '0', '2'],
    ['2', '2', '1'],
  ],
  v: [
    ['0', '1', '1'],
    ['2', '2', '2'],
    ['2', '2', '1'],
  ],
  scores: [
    ['1', '2', '3'],
    ['4', '8', '8'],
    ['3', '6', '7'],
  ],
  scaled: [
    ['0.58', '1.15', '1.73'],
    ['2.31', '4.62', '4.62'],
    ['1.73', '3.46', '4.04'],
  ],
  weights: [
    ['0.20', '0.30', '0.50'],
    ['0.02', '0.49', '0.49'],
    ['0.04', '0.24', '0.72'],
  ],
  output: [
    ['1.6', '1.8', '1.3'],
    ['2.0', '2.0', '1.5'],
    ['1.9', '1.9', '1.1'],
  ],
};
