// A matrix pasted as text, in the forms tutorials, notebooks and spreadsheets hand out:
//   LaTeX     \begin{bmatrix} 1 & 0 \\ 0 & 2 \end{bmatrix} (also pmatrix, vmatrix, matrix, array),
//             or its body alone: 1 & 0 \\ 0 & 2. A lone '\' before a space also ends a row: web
//             copies of tutorials often lose one backslash of '\\'. \frac{a}{b} is a/b.
//   NumPy     [[1. 0.]\n [0. 1.]], [[1, 0], [0, 1]] (JSON too), array([[...]], dtype=float32);
//             MATLAB's [1 0; 0 1]
//   Markdown  | 1 | 0 |\n|---|---|\n| 0 | 1 |
//   CSV, TSV  a spreadsheet's copy: cells split by tabs, else ';', else ','; with ';' a ',' is the
//             decimal point ('0,5'), as European spreadsheets write it
//   plain     rows on lines, numbers split by spaces
// An optional name before it ('X =', 'W^Q =') is skipped. Labels are dropped: a first row (a
// Markdown header, a spreadsheet's column names) or a first column (token names) none of whose
// cells is a number; a Markdown header of numbers counts as the matrix's first row (Markdown
// requires a header, so people put the first row there). Numbers follow read-number.js.
//   parseMatrix(text) -> { rows, cols, data: number[][], texts: string[][], format }
// texts: each number as written (full-width forms mapped), so a check can read its precision ('0.20').
// or throws a MatrixTextError (a RangeError) whose code and fields say what is wrong and where
// (row and col 1-based, as the page counts):
//   empty                 nothing that looks like a number
//   several-matrices      more than one \begin{...} (count)
//   not-two-dimensional   brackets three deep around more than one matrix
//   summarized            NumPy's '...' for rows or columns it left out
//   ragged                row `row` has `got` numbers, the first row has `expected`
//   not-a-number          row `row`, column `col` is `text`
import { normalizeText, readNumber } from './read-number.js';

export class MatrixTextError extends RangeError {
  constructor(code, fields, message) {
    super(`parseMatrix: ${message}`);
    this.name = 'MatrixTextError';
    this.code = code;
    Object.assign(this, fields);
  }
}

const NAME = /^\s*[A-Za-z][\w^{}'\\]*\s*=\s*/; // 'X =', 'W^Q =', 'W_{q} ='

/** -> { rows, cols, data, texts, format } (see the top of the file). */
export function parseMatrix(text) {
  if (typeof text !== 'string') throw new TypeError(`parseMatrix: text must be a string, got ${text === null ? 'null' : typeof text}`);
  const source = normalizeText(text).replace(/\r\n?/g, '\n').replace(NAME, '').trim();
  if (source === '') throw new MatrixTextError('empty', {}, 'the text is empty: paste rows of numbers');
  if (source.includes('...') || source.includes('…')) {
    throw new MatrixTextError('summarized', {}, "the text has '...' where NumPy left numbers out: print it whole (np.set_printoptions(threshold=np.inf))");
  }
  const { cells, format, decimalComma } = splitCells(source);
  return numbersOf(
    dropLabels(
      cells.filter((row) => row.length > 0),
      format,
    ),
    format,
    decimalComma,
  );
}

function splitCells(source) {
  if (/\\begin\{|&|\\\\/.test(source)) return { cells: latexCells(source), format: 'latex', decimalComma: false };
  if (/^(array\s*\()?\s*\[/.test(source)) return { cells: bracketCells(source), format: 'numpy', decimalComma: false };
  const lines = source
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.some((line) => line.startsWith('|'))) return { cells: markdownCells(lines), format: 'markdown', decimalComma: false };
  const separator = ['\t', ';', ','].find((sep) => lines.some((line) => line.includes(sep)));
  if (separator) {
    const format = separator === '\t' ? 'tsv' : 'csv';
    return { cells: lines.map((line) => splitQuoted(line, separator)), format, decimalComma: separator !== ',' };
  }
  return { cells: lines.map((line) => line.split(/\s+/)), format: 'plain', decimalComma: false };
}

/** The body of the one \begin{..}..\end{..} (or the text itself), rows at '\\', cells at '&'. */
function latexCells(source) {
  const begins = source.match(/\\begin\{[a-zA-Z*]+\}/g) ?? [];
  if (begins.length > 1) {
    throw new MatrixTextError('several-matrices', { count: begins.length }, `the text holds ${begins.length} matrices: paste one at a time`);
  }
  let body = source;
  if (begins.length === 1) {
    body = source.slice(source.indexOf(begins[0]) + begins[0].length);
    body = body.replace(/^\s*\{[lcr|\s]*\}/, ''); // array's column spec
    const end = body.search(/\\end\{/);
    if (end >= 0) body = body.slice(0, end);
  }
  body = body
    .replace(/\\[dt]?frac\s*\{\s*([^{}]*)\}\s*\{\s*([^{}]*)\}/g, '$1/$2')
    .replace(/\\(hline|left|right|,|;|!|quad|qquad)/g, ' ')
    .replace(/\\\\(\[[^\]]*\])?/g, '\n') // '\\[2pt]' too
    .replace(/\\(?=\s|$)/g, '\n');
  return body
    .split('\n')
    .map((row) => row.trim())
    .filter(Boolean)
    .map((row) => row.split('&'));
}

/** The innermost [...] groups are the rows; MATLAB's [1 0; 0 1] splits at ';'. */
function bracketCells(source) {
  const body = source
    .replace(/^array\s*\(/, '')
    .replace(/,?\s*dtype\s*=\s*[\w.]+\s*\)?\s*$/, '')
    .replace(/\)\s*$/, '');
  // opened[k]: how many '[' open at depth k + 1; a matrix is the level above the rows.
  const opened = [];
  let depth = 0;
  for (const c of body) {
    if (c === '[') {
      opened[depth] = (opened[depth] ?? 0) + 1;
      depth++;
    }
    if (c === ']') depth--;
  }
  const deepest = opened.length;
  if (deepest > 3 || (deepest === 3 && opened[1] > 1)) {
    throw new MatrixTextError('not-two-dimensional', {}, 'the brackets hold several matrices: paste one (T, d) matrix');
  }
  const rows = [...body.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]);
  const split = (row) => row.split(/[\s,]+/).filter(Boolean);
  if (deepest === 1 && rows.length === 1 && rows[0].includes(';')) return rows[0].split(';').map(split);
  return rows.map(split);
}

/** Rows between pipes; the separator line (|---|:--:|) goes, and the header above it if it is not numbers. */
function markdownCells(lines) {
  const rows = lines.map((line) =>
    line
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim()),
  );
  const separator = rows.findIndex((row) => row.every((c) => /^:?-{1,}:?$/.test(c)));
  if (separator < 0) return rows;
  return [...rows.slice(0, separator), ...rows.slice(separator + 1)];
}

/** A line split at `sep`, a quoted field ("1,5") kept whole. */
function splitQuoted(line, sep) {
  const cells = [];
  let cell = '';
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === sep && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

const isNumberText = (text) => readNumber(text, { decimalComma: true }) !== null;

/** Without a first row or first column of labels (none of their cells a number; a blank corner allowed). */
function dropLabels(cells, format) {
  let rows = cells.map((row) => row.map((c) => c.trim()));
  if (rows.length > 1 && rows[0].every((c) => !isNumberText(c)) && rows.slice(1).some((row) => row.some(isNumberText))) rows = rows.slice(1);
  // A spreadsheet's trailing tab or a Markdown row's empty edge cell is no column.
  if (format !== 'latex') rows = rows.map((row) => (row.length > 1 && row.at(-1) === '' ? row.slice(0, -1) : row));
  if (rows.length > 0 && rows.every((row) => row.length > 1 && !isNumberText(row[0]) && row.slice(1).some(isNumberText))) {
    rows = rows.map((row) => row.slice(1));
  }
  return rows;
}

function numbersOf(rows, format, decimalComma) {
  if (rows.length === 0) throw new MatrixTextError('empty', {}, 'the text holds no rows of numbers');
  const expected = rows[0].length;
  const data = rows.map((row, i) => {
    if (row.length !== expected) {
      throw new MatrixTextError(
        'ragged',
        { row: i + 1, got: row.length, expected },
        `row ${i + 1} has ${row.length} number${row.length === 1 ? '' : 's'}, row 1 has ${expected}: every row needs the same count`,
      );
    }
    return row.map((text, j) => {
      const number = readNumber(text, { decimalComma });
      if (!number)
        throw new MatrixTextError('not-a-number', { row: i + 1, col: j + 1, text }, `row ${i + 1}, column ${j + 1} is ${JSON.stringify(text)}, not a number`);
      return number.value;
    });
  });
  return { rows: data.length, cols: expected, data, texts: rows.map((row) => row.map((text) => (decimalComma ? text.replace(',', '.') : text))), format };
}
