// Numbers and matrices as people type and paste them (web/model/numbers): every form a tutorial,
// a notebook or a spreadsheet hands out gives the same matrix, and text that is not a matrix is
// refused with an error that names the row and column.
import { describe, expect, it } from 'vitest';
import { MatrixTextError, parseMatrix } from '../../../web/model/numbers/parse-matrix.js';
import { readNumber, roundingAllowance } from '../../../web/model/numbers/read-number.js';

const TWO_BY_THREE = [
  [1, 0, 1],
  [0, 2, 0],
];

describe('readNumber', () => {
  const cases = [
    ['a plain integer', '3', 3, 0],
    ['a negative decimal', '-1.25', -1.25, 2],
    ['a leading plus', '+0.5', 0.5, 1],
    ['a point without a leading digit', '.5', 0.5, 1],
    ['a trailing point as NumPy prints it', '2.', 2, 0],
    ['an exponent, which moves the precision', '4.7e-6', 4.7e-6, 7],
    ['a fraction of integers, exact', '1/2', 0.5, Infinity],
    ['a negative fraction with spaces', '-3 / 4', -0.75, Infinity],
    ['full-width digits', '１２', 12, 0],
    ['a full-width minus and point', '－０．５', -0.5, 1],
    ['a full-width fraction', '３／４', 0.75, Infinity],
    ['a typeset minus sign', '\u22120.5', -0.5, 1],
    ['an ideographic space around it', '\u30007\u3000', 7, 0],
    ['minus zero, which is zero', '-0', 0, 0],
  ];
  for (const [name, text, value, decimals] of cases) {
    it(`reads ${name}: ${JSON.stringify(text)} -> ${value}`, () => {
      expect(readNumber(text)).toEqual({ value, decimals });
    });
  }

  it('reads a decimal comma only when asked (a cell editor), never inside a pasted CSV', () => {
    expect(readNumber('0,5', { decimalComma: true })).toEqual({ value: 0.5, decimals: 1 });
    expect(readNumber('0,5')).toBeNull();
  });

  const refused = [
    ['empty text', ''],
    ['a word', 'abc'],
    ['a point alone', '.'],
    ['a sign alone', '-'],
    ['an exponent alone', 'e5'],
    ['a division by zero', '1/0'],
    ['a fraction of decimals', '0.5/2'],
    ['infinity', 'Infinity'],
    ['NaN', 'NaN'],
    ['two numbers', '1 2'],
    ['an overflowing exponent', '1e999'],
  ];
  for (const [name, text] of refused) {
    it(`refuses ${name} (${JSON.stringify(text)})`, () => expect(readNumber(text)).toBeNull());
  }

  it('allows half a unit of the last written digit, and nothing for an exact fraction', () => {
    expect(roundingAllowance(2)).toBeCloseTo(0.005, 15);
    expect(roundingAllowance(0)).toBe(0.5);
    expect(roundingAllowance(Infinity)).toBe(0);
  });
});

describe('parseMatrix', () => {
  const forms = [
    ['a LaTeX bmatrix', '\\begin{bmatrix} 1 & 0 & 1 \\\\ 0 & 2 & 0 \\end{bmatrix}', 'latex'],
    ['a bare LaTeX body', '1 & 0 & 1 \\\\ 0 & 2 & 0', 'latex'],
    ['a LaTeX matrix with its name and a trailing row break', 'X = \\begin{pmatrix}\n1 & 0 & 1 \\\\\n0 & 2 & 0 \\\\\n\\end{pmatrix}', 'latex'],
    ['a web copy of LaTeX that lost one backslash of each row break', '\\begin{bmatrix}\n1 & 0 & 1 \\ 0 & 2 & 0\n\\end{bmatrix}', 'latex'],
    ['an array with a column spec and \\frac', '\\left[\\begin{array}{ccc} 1 & 0 & \\frac{2}{2} \\\\ 0 & 2 & 0 \\end{array}\\right]', 'latex'],
    ['a NumPy print', '[[1. 0. 1.]\n [0. 2. 0.]]', 'numpy'],
    ['a NumPy print with commas', '[[1., 0., 1.],\n [0., 2., 0.]]', 'numpy'],
    ['a NumPy array repr with a dtype', 'array([[1., 0., 1.],\n       [0., 2., 0.]], dtype=float32)', 'numpy'],
    ['JSON nested arrays', '[[1,0,1],[0,2,0]]', 'numpy'],
    ['a (1, R, C) stack as NumPy prints it', '[[[1 0 1]\n  [0 2 0]]]', 'numpy'],
    ['MATLAB rows split by semicolons', '[1 0 1; 0 2 0]', 'numpy'],
    ['a Markdown table with a header of labels', '| a | b | c |\n|---|:-:|--:|\n| 1 | 0 | 1 |\n| 0 | 2 | 0 |', 'markdown'],
    ['a Markdown table whose header is the first row', '| 1 | 0 | 1 |\n|---|---|---|\n| 0 | 2 | 0 |', 'markdown'],
    ['a Markdown table without a separator line', '| 1 | 0 | 1 |\n| 0 | 2 | 0 |', 'markdown'],
    ['a TSV copy from a spreadsheet, trailing tab and CRLF', '1\t0\t1\t\r\n0\t2\t0\r\n', 'tsv'],
    ['a CSV file', '1,0,1\n0,2,0\n', 'csv'],
    ['a CSV with column names and row labels', ',k1,k2,k3\nx1,1,0,1\nx2,0,2,0', 'csv'],
    ['a European CSV (semicolons, decimal commas)', '1;0;1\n0;2,0;0', 'csv'],
    ['plain rows split by spaces', '1 0 1\n0   2 0', 'plain'],
    ['plain rows in full-width digits and ideographic spaces', '１\u3000０\u3000１\n０\u3000２\u3000０', 'plain'],
    ['fractions that make whole numbers', '2/2 0 1\n0 4/2 -0/3', 'plain'],
  ];
  for (const [name, text, format] of forms) {
    it(`reads ${name} as [[1, 0, 1], [0, 2, 0]]`, () => {
      expect(parseMatrix(text)).toMatchObject({ rows: 2, cols: 3, data: TWO_BY_THREE, format });
    });
  }

  it('keeps each number as written beside its value, so its precision can be read', () => {
    // A spreadsheet's TSV with a full-width row and a decimal comma.
    expect(parseMatrix('0.20\t1/2\n１．５０\t2,0')).toMatchObject({
      data: [
        [0.2, 0.5],
        [1.5, 2],
      ],
      texts: [
        ['0.20', '1/2'],
        ['1.50', '2.0'],
      ],
    });
  });

  it('reads fractions and exponents as their values', () => {
    expect(parseMatrix('1/2 -3/4\n1e-3 -2.5E2').data).toEqual([
      [0.5, -0.75],
      [0.001, -250],
    ]);
  });

  it('reads one row, and one number, as a 1 x n and a 1 x 1 matrix', () => {
    expect(parseMatrix('1 2 3')).toMatchObject({ rows: 1, cols: 3, data: [[1, 2, 3]] });
    expect(parseMatrix(' 7 ')).toMatchObject({ rows: 1, cols: 1, data: [[7]] });
  });

  const refusals = [
    ['ragged rows, naming the short row', '1 0 1\n0 2', { code: 'ragged', row: 2, got: 2, expected: 3 }, /row 2 has 2 numbers, row 1 has 3/],
    ['ragged LaTeX rows', '1 & 0 \\\\ 0 & 2 & 0', { code: 'ragged', row: 2, got: 3, expected: 2 }, /row 2 has 3 numbers/],
    ['a word inside, naming its row and column', '1 0 1\n0 x 0', { code: 'not-a-number', row: 2, col: 2, text: 'x' }, /row 2, column 2 is "x", not a number/],
    ['NaN in a NumPy print', '[[1. nan]\n [0. 1.]]', { code: 'not-a-number', row: 1, col: 2, text: 'nan' }, /row 1, column 2 is "nan"/],
    ['an empty CSV cell', '1,,1\n0,2,0', { code: 'not-a-number', row: 1, col: 2, text: '' }, /row 1, column 2 is ""/],
    ['empty text', '  \n ', { code: 'empty' }, /empty/],
    ['a NumPy print with rows left out', '[[1. 0.]\n ...\n [0. 1.]]', { code: 'summarized' }, /NumPy left numbers out/],
    [
      'two LaTeX matrices at once',
      'W^Q = \\begin{bmatrix} 1 \\end{bmatrix}, W^K = \\begin{bmatrix} 2 \\end{bmatrix}',
      { code: 'several-matrices', count: 2 },
      /2 matrices/,
    ],
    ['a stack of two matrices', '[[[1, 2]], [[3, 4]]]', { code: 'not-two-dimensional' }, /several matrices/],
  ];
  for (const [name, text, fields, message] of refusals) {
    it(`refuses ${name}`, () => {
      let error = null;
      try {
        parseMatrix(text);
      } catch (e) {
        error = e;
      }
      expect(error, `parseMatrix(${JSON.stringify(text)}) should throw`).toBeInstanceOf(MatrixTextError);
      expect(error).toBeInstanceOf(RangeError);
      expect(error).toMatchObject(fields);
      expect(error.message).toMatch(message);
    });
  }

  it('refuses a value that is not text with a TypeError naming the argument', () => {
    expect(() => parseMatrix(null)).toThrow(new TypeError('parseMatrix: text must be a string, got null'));
    expect(() => parseMatrix([[1]])).toThrow(/text must be a string, got object/);
  });
});
