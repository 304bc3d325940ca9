// Numbers and sums as TeX, for the explanations (KaTeX typesets them).
import { formatNumber } from '../../figures/format.js';

/** A number in TeX: −∞ -> -\infty, 1e6 -> 10^{6}-style stays readable as 1e6 in \text. */
export function num(value) {
  const text = formatNumber(value).replace('\u2212', '-');
  if (text.endsWith('∞')) return text.startsWith('-') ? '-\\infty' : '\\infty';
  return text.includes('e') ? `\\text{${text}}` : text;
}

/** A factor in a product: negatives in parentheses. */
export const factor = (value) => (value < 0 ? `(${num(value)})` : num(value));

/** Long sums keep their first three and last two terms around an ellipsis. */
export function joinTerms(terms, op = ' + ') {
  const shown = terms.length > 7 ? [...terms.slice(0, 3), '\\cdots', ...terms.slice(-2)] : terms;
  return shown.join(op);
}

/** a · b term by term: 'a_1 \cdot b_1 + ...'. */
export function dotTerms(a, b) {
  return joinTerms(a.map((x, t) => `${factor(x)} \\cdot ${factor(b[t])}`));
}

/** A subscript pair i,j written 1-based, as in textbooks. */
export const ij = (i, j) => `${i + 1}${j + 1}`;
export const sub = (...indices) => indices.map((k) => k + 1).join(',');
