// Numbers as the figures show them. A value that is exactly a short decimal (as typed: 0.1, 2,
// -1.25, after float32 rounding) is shown that way; any other is rounded to 4 decimals below 1
// and 4 significant digits above. data-value attributes and aria labels carry String(value),
// the full float32 value.

const MINUS = '\u2212';

function magnitude(a) {
  if (a >= 1e5 || a < 5e-5) {
    const [mantissa, exponent] = a.toExponential(2).split('e');
    return `${String(Number(mantissa))}e${Number(exponent)}`;
  }
  for (let places = 0; places <= 4; places++) {
    const text = a.toFixed(places);
    if (Math.fround(Number(text)) === Math.fround(a)) return text;
  }
  return a >= 1 ? a.toPrecision(Math.max(4, Math.floor(Math.log10(a)) + 2)) : a.toFixed(4);
}

/** The short text of a number in a cell: '0.0557', '3.939', '2', '−∞', '−1e6'. */
export function formatNumber(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : `${MINUS}∞`;
  return (value < 0 ? MINUS : '') + magnitude(Math.abs(value));
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
 * shown: the cell's text when it is not formatNumber's (a heatmap's two decimals).
 */
export function spokenValue(value, shown = formatNumber(value)) {
  const full = fullValue(value);
  return shown.replace(MINUS, '-') === full ? full : `${shown} (exactly ${full})`;
}
