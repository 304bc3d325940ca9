// A table timed while another job held the core, told apart from slow code, and timed again.
//
// Each of our target rows has two efficiencies (ceiling.mjs): the call's, its median rate over the
// run's highest ceiling reading, and "beside", each call over the ceiling read just before and after
// it. A window in which the machine runs slower slows the call and the probe beside it alike, so
// beside holds while the call's efficiency drops. On a quiet machine the two agree within 2-3% (the
// probe's readings scatter a little below their highest); in the disturbed tables of a full run on
// 2026-11-25 (Zen 4, 2 vCPUs shared) they were 12-29% apart. A table whose rows are more than
// SLOW_WINDOW apart is timed again, every contender alternating as before, up to RETIMES more times,
// and the attempt with the smallest gap is kept: the choice reads the probe beside our calls, never
// which library won, so the ratios are not picked.

/** Beside over the call, minus 1, above which a table counts as timed in a slow window. */
export const SLOW_WINDOW = 0.05;
/** How many more times a table in a slow window is timed. */
export const RETIMES = 2;

/**
 * The largest relative gap beside / call - 1 over a table's rows that have both efficiencies
 * (rows: { efficiency, besideEfficiency }); 0 when no row has both.
 */
export function slowWindow(rows) {
  let worst = 0;
  for (const row of rows) {
    if (!(row.efficiency > 0) || !(row.besideEfficiency > 0)) continue;
    worst = Math.max(worst, row.besideEfficiency / row.efficiency - 1);
  }
  return worst;
}

/**
 * Runs `measure()` (-> a table { rows }) once, and again while the best attempt so far has a slow
 * window above `bound`, at most `retimes` more times, and none started after `deadline` (a
 * performance.now() time; the check at the end of a run passes its budget's end: one attempt of
 * the largest table took 5 minutes on the Xeon). -> the attempt with the smallest slowWindow,
 * with `attempts` (how many were timed) and `slowWindows` (each attempt's gap, in order).
 * onAttempt(table, gap, attempt, again) is told, as soon as it is timed, of each attempt that is
 * timed again (again: true) or that ends the retimes without being kept (again: false); attempt is
 * its number from 1. So a log shows every attempt once and the one returned, the caller's to
 * print, again; a table timed once tells nothing.
 */
export async function leastDisturbed(measure, { bound = SLOW_WINDOW, retimes = RETIMES, deadline = Infinity, onAttempt = () => {} } = {}) {
  let best = await measure();
  let bestGap = slowWindow(best.rows);
  const gaps = [bestGap];
  let latest = best;
  for (;;) {
    const again = bestGap > bound && gaps.length <= retimes && performance.now() < deadline;
    if (again || latest !== best) onAttempt(latest, gaps.at(-1), gaps.length, again);
    if (!again) break;
    latest = await measure();
    gaps.push(slowWindow(latest.rows));
    if (gaps.at(-1) < bestGap) [best, bestGap] = [latest, gaps.at(-1)];
  }
  return { ...best, attempts: gaps.length, slowWindows: gaps };
}

/** A gap as the report prints it: 0.163 -> "+16%". */
const percent = (gap) => `+${(100 * gap).toFixed(0)}%`;
/** The number, from 1, of the least hit of attempts with these gaps (the one leastDisturbed keeps). */
const leastHitAttempt = (slowWindows) => slowWindows.indexOf(Math.min(...slowWindows)) + 1;

/**
 * "timed 3 times in this run (beside over the call +16%, +12%, +3%; above +5% a table is timed
 * again): attempt 3 kept", or '' for a table timed once.
 */
export function attemptsText(table, bound = SLOW_WINDOW) {
  if (!(table.attempts > 1)) return '';
  return `timed ${table.attempts} times in this run (beside over the call ${table.slowWindows.map(percent).join(', ')}; ` +
    `above ${percent(bound)} a table is timed again): attempt ${leastHitAttempt(table.slowWindows)} kept`;
}

/**
 * The check again at the end of the run. A table timed while the whole machine ran slow, the probe
 * included, reads normal beside its calls against the highest ceiling read so far, which that same
 * window lowered; over the run's highest reading its calls fall and beside does not, and the gap
 * shows. `kept` is the table as kept, `again` the same configuration timed again at the end
 * (leastDisturbed, so with its own `attempts` and `slowWindows`), both with efficiencies over the
 * run's highest reading: the one with the smaller gap, whose `late` records both gaps, the end's
 * attempts and which was kept. Its `attempts` and `slowWindows` stay the first timing's, the
 * attempts in the run, whichever is kept: a report tells those and the end's apart.
 */
export function lessDisturbedAtEnd(kept, again) {
  const before = slowWindow(kept.rows);
  const after = slowWindow(again.rows);
  const winner = after < before ? again : kept;
  const late = { before, after, kept: winner === again ? 'again' : 'first', attempts: again.attempts ?? 1, slowWindows: again.slowWindows ?? [after] };
  return { ...winner, attempts: kept.attempts, slowWindows: kept.slowWindows, late };
}

/**
 * "timed again at the end of the run (beside over the call +34% over the run's highest ceiling,
 * then +2%): the second timing kept"; where the end's timing was itself retimed, its attempts:
 * "timed again at the end of the run, 2 attempts (beside over the call +16% over the run's highest
 * ceiling, then +35%, +4%): the second timing (attempt 2 at the end) kept".
 */
export function lateText(table) {
  if (!table.late) return '';
  const { before, kept, attempts, slowWindows } = table.late;
  const atEnd = attempts > 1 ? `, ${attempts} attempts` : '';
  const which = kept === 'again'
    ? `the second timing${attempts > 1 ? ` (attempt ${leastHitAttempt(slowWindows)} at the end)` : ''}`
    : 'the first timing';
  return `timed again at the end of the run${atEnd} (beside over the call ${percent(before)} over the run's highest ceiling, ` +
    `then ${slowWindows.map(percent).join(', ')}): ${which} kept`;
}

/**
 * Which tables the check at the end times again, in what order: those over `bound`, the tables that
 * carry a target first (hasTarget(table)), then the others, each group by its gap, largest first.
 * On a host where most tables show a gap (an Intel Xeon, 2026-11-27: nearly all 33), timing them all
 * again took longer than the run; the caller stops at a time budget, so the order decides which the
 * budget reaches. -> indexes into `tables`.
 */
export function lateOrder(tables, hasTarget, bound = SLOW_WINDOW) {
  return tables
    .map((t, i) => ({ i, gap: slowWindow(t.rows), target: hasTarget(t) }))
    .filter((t) => t.gap > bound)
    .sort((a, b) => Number(b.target) - Number(a.target) || b.gap - a.gap)
    .map((t) => t.i);
}

/** "not timed again at the end: the check's 15-minute budget was spent (beside over the call +12% over the run's highest ceiling)". */
export function lateSkippedText(table, budgetMinutes) {
  return `not timed again at the end: the check's ${budgetMinutes}-minute budget was spent ` +
    `(beside over the call ${percent(slowWindow(table.rows))} over the run's highest ceiling)`;
}
