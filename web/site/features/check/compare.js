// Checking a hand calculation: the numbers a user typed against the exact ones.
// A typed number is right when it is within half a unit of its last typed decimal place of the
// exact value, i.e. when the exact value rounds to it: '0.46' may be off by 0.005, '3' by 0.5,
// '2.0' by 0.05, '4.7e-6' by 0.05e-6. A sliver more (SLACK) is allowed because the exact values
// are float32, about 6e-8 of their size away from the real numbers a hand calculation rounds.
import { matrixSize, stackCount } from '../../../model/compute/tensors.js';

const SLACK = 2 ** -22;

/**
 * The number a user typed, with its precision: { value, tolerance }, null for an empty entry,
 * or { invalid: true }. Accepts '−' and ',' as typed on some keyboards, '∞' / 'inf' for masked scores.
 */
export function parseTyped(text) {
  const cleaned = String(text ?? '').trim().replace(/[\u2212\u2013]/g, '-').replace(',', '.').replace(/^\+/, '');
  if (cleaned === '') return null;
  if (/^-?(∞|inf(inity)?)$/i.test(cleaned)) return { value: cleaned.startsWith('-') ? -Infinity : Infinity, tolerance: 0 };
  const match = /^-?(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i.exec(cleaned);
  if (!match || (match[1] === '' && !match[2])) return { invalid: true };
  const decimals = (match[2]?.length ?? 0) - Number(match[3] ?? 0);
  return { value: Number(cleaned), tolerance: 0.5 * 10 ** -decimals };
}

/** One typed entry against the exact value -> { status: 'empty'|'invalid'|'right'|'wrong', diff, tolerance }. */
export function checkEntry(text, exact) {
  const typed = parseTyped(text);
  if (typed === null) return { status: 'empty' };
  if (typed.invalid) return { status: 'invalid' };
  if (!Number.isFinite(exact) || !Number.isFinite(typed.value)) {
    const same = typed.value === exact;
    return { status: same ? 'right' : 'wrong', diff: same ? 0 : Infinity, signed: same ? 0 : Infinity, tolerance: 0, typed: typed.value };
  }
  const signed = typed.value - exact;
  const diff = Math.abs(signed);
  const right = diff <= typed.tolerance + SLACK * Math.max(1, Math.abs(exact));
  return { status: right ? 'right' : 'wrong', diff, signed, tolerance: typed.tolerance, typed: typed.value };
}

/**
 * entries: typed text (B, R, C) (missing entries count as empty); tensor: the exact (B, R, C).
 * -> { cells: [b][i][j] -> checkEntry(), filled, total, right, wrong, invalid, worst: { diff, batch, row, col } | null }
 */
export function checkStage(entries, tensor) {
  const [R, C] = matrixSize(tensor);
  const B = stackCount(tensor);
  const report = { cells: [], filled: 0, total: B * R * C, right: 0, wrong: 0, invalid: 0, worst: null };
  for (let b = 0; b < B; b++) {
    report.cells.push(Array.from({ length: R }, (_, i) => Array.from({ length: C }, (_, j) => {
      const cell = checkEntry(entries?.[b]?.[i]?.[j], tensor.data[(b * R + i) * C + j]);
      if (cell.status !== 'empty') report.filled++;
      if (cell.status === 'right') report.right++;
      if (cell.status === 'invalid') report.invalid++;
      if (cell.status === 'wrong') {
        report.wrong++;
        if (!report.worst || cell.diff > report.worst.diff) report.worst = { diff: cell.diff, batch: b, row: i, col: j };
      }
      return cell;
    })));
  }
  return report;
}

/** "2 of 9 cells differ; largest difference 0.54 at row 2, col 1" (1-based, as the page counts). */
export function checkSummary(report, { batches = false } = {}) {
  if (report.filled === 0) return 'Type your numbers: each cell is checked as you leave it.';
  const parts = [];
  const { worst } = report;
  if (report.wrong === 0) parts.push(`All ${report.right} number${report.right === 1 ? '' : 's'} you typed match`);
  else {
    const where = `row ${worst.row + 1}, col ${worst.col + 1}${batches ? ` of batch ${worst.batch + 1}` : ''}`;
    const size = Number.isFinite(worst.diff) ? Number(worst.diff.toPrecision(2)) : '∞';
    parts.push(`${report.wrong} of ${report.total} cells differ; largest difference ${size} at ${where}`);
  }
  if (report.invalid) parts.push(`${report.invalid} not a number`);
  if (report.filled < report.total) parts.push(`${report.total - report.filled} empty`);
  return `${parts.join('; ')}.`;
}
