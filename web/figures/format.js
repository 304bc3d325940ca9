// Numbers as the figures show them. A value that is exactly a short decimal (as typed: 0.1, 2,
// -1.25, after float32 rounding) is shown that way; any other is rounded to 4 decimals below 1
// and 4 significant digits above. data-value attributes and aria labels carry String(value),
// the full float32 value.
import { figureMessage } from '../i18n/figure-text.js';

const MINUS = '\u2212';

/** Magnitudes shown with decimals; the others in exponent form (−1e6, the d2l fill; 3e-7). */
const inFixedRange = (a) => a >= 5e-5 && a < 1e5;

/** a (> 0) as the short decimal it is in float32 (0.1, 2, 1.25), or null when it is none of 4 places or fewer. */
function shortDecimal(a) {
  for (let places = 0; places <= 4; places++) {
    const text = a.toFixed(places);
    if (Math.fround(Number(text)) === Math.fround(a)) return text;
  }
  return null;
}

function magnitude(a) {
  if (!inFixedRange(a)) {
    const [mantissa, exponent] = a.toExponential(2).split('e');
    return `${String(Number(mantissa))}e${Number(exponent)}`;
  }
  return shortDecimal(a) ?? (a >= 1 ? a.toPrecision(Math.max(4, Math.floor(Math.log10(a)) + 2)) : a.toFixed(4));
}

/** The short text of a number in a cell: '0.0557', '3.939', '2', '−∞', '−1e6'. */
export function formatNumber(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : `${MINUS}∞`;
  return (value < 0 ? MINUS : '') + magnitude(Math.abs(value));
}

/**
 * The texts of one matrix's cells, with one number of decimals for all: each value as typed when
 * every value is a short decimal (0.1, 2, −1.25), else every value rounded to the decimals that
 * keep 4 significant digits of the largest (at least 2, at most 4): '−0.450 0.820 −5.450', not
 * '−0.4500 0.82 −5.450'. Exact zeros stay '0', and ∞, NaN and values outside [5e-5, 1e5) keep
 * their own form.
 */
export function formatMatrix(values) {
  const texts = Array.from(values, formatNumber);
  let largest = 0;
  let allShort = true;
  for (const value of values) {
    const a = Math.abs(value);
    if (!Number.isFinite(a) || a === 0 || !inFixedRange(a)) continue;
    largest = Math.max(largest, a);
    allShort &&= shortDecimal(a) !== null;
  }
  if (allShort) return texts;
  const places = largest >= 1 ? Math.max(2, 3 - Math.floor(Math.log10(largest))) : 4;
  return Array.from(values, (value, k) => {
    const a = Math.abs(value);
    return a !== 0 && inFixedRange(a) ? (value < 0 ? MINUS : '') + a.toFixed(places) : texts[k];
  });
}

/** The exact value for attributes and screen readers. */
export function fullValue(value) {
  return String(value);
}

/**
 * A cell's value as its accessible name says it: the text the cell shows, then the exact value
 * when that differs ('0.0557 (exactly 0.0557166188955307)'; '2' stays '2'). The name must contain
 * what a sighted reader sees (WCAG 2.5.3 Label in Name: speech control says what it sees, and a
 * screen reader agrees with the screen) and still carries the full value data-value holds.
 * shown: the cell's text when it is not formatNumber's (a heatmap's two decimals); lang: 'en' or 'zh-CN'.
 */
export function spokenValue(value, shown = formatNumber(value), lang = 'en') {
  if (Number.isNaN(value) || Math.abs(value) === Infinity) return shown; // −∞ is exact as shown
  const full = fullValue(value);
  return shown.replace(MINUS, '-') === full ? full : figureMessage(lang, 'figure.exactly', { shown, full });
}
