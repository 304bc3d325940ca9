// The seed-004 example, written once for every suite that uses it (unit, e2e, embed): a Java
// walk-through of self-attention with three tokens of width 2, X (3, 2), W^Q = I and W^K, W^V (2, 2),
// and the values docs/semantics.md ("Seed 004") quotes for it, computed exactly (the walk-through
// prints its middle row a little off). The explorer's preset (web/model/presets/seed-004.js) holds
// the same inputs; the tests keep this copy of their own so that no expected value is taken from
// the code under test.

/** The inputs as rows: x (3, 2); wq, wk, wv (2, 2), one head. */
export const SEED_004 = {
  x: [
    [1, 2],
    [0, 1],
    [3, 1],
  ],
  wq: [
    [1, 0],
    [0, 1],
  ],
  wk: [
    [1, 1],
    [0, 1],
  ],
  wv: [
    [1, 0],
    [1, 1],
  ],
};

/**
 * docs/semantics.md's values without a mask: K = X W^K and V = X W^V (3, 2), exact integers; the
 * weights (3, 3) to 4 decimals and the output (3, 2) to 3, as quoted there.
 */
export const SEED_004_QUOTED = {
  k: [
    [1, 3],
    [0, 1],
    [3, 4],
  ],
  v: [
    [3, 2],
    [1, 1],
    [4, 1],
  ],
  weights: [
    [0.0557, 0.0016, 0.9427],
    [0.3057, 0.0743, 0.62],
    [0.007, 0.0002, 0.9928],
  ],
  output: [
    [3.939, 1.056],
    [3.471, 1.306],
    [3.992, 1.007],
  ],
};
