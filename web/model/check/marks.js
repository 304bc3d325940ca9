// Marking one typed number against a value: right when the value rounds to what was typed, i.e.
// within half a unit of its last written digit ('0.46' may be off by 0.005, '3' by 0.5, '2.0' by
// 0.05, '4.7e-6' by 0.05e-6; a fraction such as '1/3' is exact). A sliver more (SLACK) is allowed
// because the exact values are float32, about 6e-8 of their size away from the real numbers a
// hand calculation rounds.
import { readNumber, roundingAllowance } from '../numbers/read-number.js';

const SLACK = 2 ** -22;

/**
 * The number a student typed: { value, tolerance }, null for an empty entry, or { invalid: true }.
 * The grammar is read-number.js's (a decimal comma too); '∞', 'inf', '-∞' for masked scores.
 */
export function parseTyped(text) {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') return null;
  const infinity = /^([-+\u2212]?)(∞|inf(inity)?)$/i.exec(trimmed);
  if (infinity) return { value: infinity[1] === '' || infinity[1] === '+' ? Infinity : -Infinity, tolerance: 0 };
  const number = readNumber(trimmed, { decimalComma: true });
  return number ? { value: number.value, tolerance: roundingAllowance(number.decimals) } : { invalid: true };
}

/** Whether typed ({ value, tolerance }) is what `reference` rounds to. */
export function matches(typed, reference) {
  if (!Number.isFinite(reference) || !Number.isFinite(typed.value)) return typed.value === reference;
  return Math.abs(typed.value - reference) <= typed.tolerance + SLACK * Math.max(1, Math.abs(reference));
}

/** One typed entry against a value -> { status: 'empty'|'invalid'|'right'|'wrong', diff, signed, tolerance, typed }. */
export function checkEntry(text, reference) {
  const typed = parseTyped(text);
  if (typed === null) return { status: 'empty' };
  if (typed.invalid) return { status: 'invalid' };
  const right = matches(typed, reference);
  const signed = Number.isFinite(typed.value) && Number.isFinite(reference) ? typed.value - reference : right ? 0 : Infinity;
  return { status: right ? 'right' : 'wrong', diff: Math.abs(signed), signed, tolerance: typed.tolerance, typed: typed.value };
}
