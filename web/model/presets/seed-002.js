// seed 002 (a Chinese self-attention tutorial): X (3, 4), W^Q, W^K, W^V (4, 3). Its text gets
// Q wrong (row 1 of X times W^Q is [1, 1, 1], the text says [1, 0, 1]) and K, V and everything
// after them too. `printed` keeps the text's numbers as printed, for the note that compares them
// with the exact ones, and the preset opens in check mode with them typed in. Strings: '0.20' and
// '2.0' say how precise the text claims to be, which decides how far from the exact value a
// number may be and still count as right (model/check/marks.js).
const PRINTED = {
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

export default {
  id: 'seed-002',
  make: () => ({
    source: 'self',
    tokens: ['x1', 'x2', 'x3'],
    x: [
      [1, 0, 1, 0],
      [0, 2, 0, 2],
      [1, 1, 1, 1],
    ],
    wq: [
      [
        [1, 0, 1],
        [1, 0, 0],
        [0, 1, 0],
        [0, 1, 1],
      ],
    ],
    wk: [
      [
        [0, 1, 1],
        [1, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
      ],
    ],
    wv: [
      [
        [0, 0, 1],
        [1, 1, 0],
        [0, 1, 0],
        [1, 0, 1],
      ],
    ],
    scoring: 'scaled-dot',
    // Opens in check mode with the text's numbers typed in and checked: the page marks the wrong
    // ones and names the slips they start from.
    checks: Object.fromEntries(Object.entries(PRINTED).map(([stage, rows]) => [stage, [rows]])),
    checked: Object.fromEntries(Object.keys(PRINTED).map((stage) => [stage, 'checked'])),
  }),
  printed: PRINTED,
};
