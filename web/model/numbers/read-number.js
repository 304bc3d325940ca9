// The one number grammar of everything a person types or pastes into the explorer: a cell's
// editor, a pasted matrix (parse-matrix.js) and check mode's fields (check/marks.js).
//   -1.25   +3   .5   2.   4.7e-6   1/2   -3/4        plain decimals, exponents, fractions of integers
//   １２  －０．５  ３／４                                what a Chinese (full-width) keyboard types
//   −0.5 (U+2212), –0.5 (en dash)                       minus signs as typeset text carries them
// A number keeps how precisely it was written: `decimals` (digits after the point minus the
// exponent; Infinity for a fraction, which is exact), so a check can ask whether the exact value
// rounds to it ('0.46' means 0.46 ± 0.005, '3' means 3 ± 0.5).

// NFKC maps the full-width forms (U+FF01..U+FF5E) and the ideographic space (U+3000) to ASCII;
// these minus signs it leaves alone.
const MINUS = /[\u2212\u2012\u2013\uFE63]/g;

/** Text in the ASCII forms the grammar reads: full-width digits, signs, points and spaces mapped. */
export function normalizeText(text) {
  return String(text).normalize('NFKC').replace(MINUS, '-');
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;
const FRACTION = /^([+-]?)(\d+)\s*\/\s*(\d+)$/;

/**
 * text -> { value, decimals } or null when it is not a finite number (empty text too).
 * decimalComma: a single ',' is the decimal point ('0,5'), as some keyboards type it; a pasted
 * matrix passes false when commas separate its cells.
 */
export function readNumber(text, { decimalComma = false } = {}) {
  let s = normalizeText(text).trim();
  if (decimalComma && !s.includes('.') && /^[^,]*,[^,]*$/.test(s)) s = s.replace(',', '.');
  const fraction = FRACTION.exec(s);
  if (fraction) {
    const [, sign, top, bottom] = fraction;
    if (Number(bottom) === 0) return null;
    return { value: (sign === '-' ? -1 : 1) * (Number(top) / Number(bottom)) + 0, decimals: Infinity };
  }
  const decimal = DECIMAL.exec(s);
  // A point alone ('.', '-.') or an exponent without digits before it is not a number.
  if (!decimal || (decimal[2] === '' && !decimal[3])) return null;
  const value = Number(s);
  if (!Number.isFinite(value)) return null;
  const decimals = (decimal[3]?.length ?? 0) - Number(decimal[4] ?? 0);
  return { value: value + 0, decimals }; // + 0: '-0' is 0
}

/** Half a unit of the last written digit: how far the exact value may be and still round to it. */
export const roundingAllowance = (decimals) => (decimals === Infinity ? 0 : 0.5 * 10 ** -decimals);
