// The bench's re-timing of a table that a slow window of the machine hit (tools/bench/lib/slow-window.mjs):
// which tables count as hit, that the least hit attempt is kept whatever the rows' speeds, and the
// text the report prints. Pure functions: measure() is a stand-in returning prepared tables.
import { describe, expect, it } from 'vitest';
import { RETIMES, SLOW_WINDOW, attemptsText, lateOrder, lateSkippedText, lateText, leastDisturbed, lessDisturbedAtEnd, slowWindow } from '../../tools/bench/lib/slow-window.mjs';

// A table whose target rows have these (call, beside) efficiencies, plus a peer row with neither.
const table = (name, ...pairs) => ({
  name,
  rows: [...pairs.map(([efficiency, besideEfficiency]) => ({ efficiency, besideEfficiency })), { library: 'peer', ratio: 1.7 }],
});

describe('slowWindow: how far beside is above the call in a table', () => {
  it('is the largest relative gap over the rows that have both, and 0 without any', () => {
    // run of 2026-11-25: T = 512 read 71.5% (beside 73.0%), T = 2048 48.6% (beside 62.8%)
    expect(slowWindow(table('t512', [0.715, 0.73]).rows)).toBeCloseTo(0.73 / 0.715 - 1, 12);
    expect(slowWindow(table('t2048', [0.715, 0.73], [0.486, 0.628]).rows)).toBeCloseTo(0.628 / 0.486 - 1, 12);
    expect(slowWindow([{ efficiency: 0.7 }, { besideEfficiency: 0.7 }, { efficiency: NaN, besideEfficiency: 0.5 }])).toBe(0);
    expect(slowWindow([{ efficiency: 0.8, besideEfficiency: 0.78 }])).toBe(0); // beside below the call: no window
  });
});

describe('leastDisturbed: a table hit by a slow window is timed again, the least hit attempt kept', () => {
  const run = (tables) => {
    let calls = 0;
    const measure = async () => tables[calls++];
    return { measure, calls: () => calls };
  };

  it('times a quiet table once', async () => {
    const r = run([table('quiet', [0.77, 0.79])]);
    const kept = await leastDisturbed(r.measure);
    expect(r.calls()).toBe(1);
    expect(kept.name).toBe('quiet');
    expect(kept.attempts).toBe(1);
    expect(attemptsText(kept)).toBe('');
  });

  it('keeps the attempt with the smallest gap, not the one where our rows read fastest', async () => {
    // attempt 2 has our highest call efficiency but a worse window than attempt 3
    const r = run([table('a1', [0.5, 0.63]), table('a2', [0.9, 1.2]), table('a3', [0.7, 0.72])]);
    const told = [];
    const kept = await leastDisturbed(r.measure, { onAttempt: (t, gap, attempt, again) => told.push([t.name, attempt, again]) });
    expect(r.calls()).toBe(3);
    expect(kept.name).toBe('a3');
    expect(kept.attempts).toBe(3);
    // each attempt is told as it was timed, attempt 2 too although it never became the best; the kept one is not
    expect(told).toEqual([['a1', 1, true], ['a2', 2, true]]);
    expect(attemptsText(kept)).toBe('timed 3 times in this run (beside over the call +26%, +33%, +3%; above +5% a table is timed again): attempt 3 kept');
  });

  it('tells of the last attempt too when it is set aside, so the log loses none, and of nothing for a quiet table', async () => {
    // attempt 2 is the least hit; attempt 3, the last RETIMES allows, is worse and not kept
    const r = run([table('a1', [0.5, 0.65]), table('a2', [0.6, 0.66]), table('a3', [0.55, 0.7])]);
    const told = [];
    const kept = await leastDisturbed(r.measure, { onAttempt: (t, gap, attempt, again) => told.push([t.name, attempt, again, gap]) });
    expect(r.calls()).toBe(1 + RETIMES);
    expect(kept.name).toBe('a2');
    expect(told.map(([name, attempt, again]) => [name, attempt, again])).toEqual([['a1', 1, true], ['a2', 2, true], ['a3', 3, false]]);
    expect(told.map(([, , , gap]) => gap)).toEqual(kept.slowWindows); // each told with its own gap
    const quiet = [];
    await leastDisturbed(run([table('quiet', [0.77, 0.79])]).measure, { onAttempt: (t) => quiet.push(t.name) });
    expect(quiet).toEqual([]);
  });

  it('stops as soon as an attempt is under the bound, and after RETIMES more attempts at most', async () => {
    const early = run([table('a1', [0.6, 0.7]), table('a2', [0.75, 0.76]), table('never', [0.8, 0.8])]);
    expect((await leastDisturbed(early.measure)).name).toBe('a2');
    expect(early.calls()).toBe(2);
    const noisy = Array.from({ length: RETIMES + 3 }, (_, i) => table(`n${i}`, [0.5, 0.5 * (1.5 - i * 0.01)]));
    const always = run(noisy);
    const kept = await leastDisturbed(always.measure);
    expect(always.calls()).toBe(1 + RETIMES);
    expect(kept.name).toBe(`n${RETIMES}`); // the last was the least hit
    expect(kept.slowWindows.every((g) => g > SLOW_WINDOW)).toBe(true);
  });
});

describe('lessDisturbedAtEnd: the check again over the run\'s highest ceiling', () => {
  // run of 2026-11-25: the first table was timed while the probe too read 45.2 GFLOP/s (52.5 later),
  // so beside and call agreed then (64%); over 52.5 the call reads 56% and beside stays 75%.
  it('keeps the timing at the end when the first one shows the larger gap, and says so', () => {
    const first = table('first', [0.56, 0.75]);
    const again = table('again', [0.74, 0.75]);
    const kept = lessDisturbedAtEnd(first, again);
    expect(kept.name).toBe('again');
    expect(kept.late).toEqual({ before: slowWindow(first.rows), after: slowWindow(again.rows), kept: 'again', attempts: 1, slowWindows: [slowWindow(again.rows)] });
    expect(lateText(kept)).toBe('timed again at the end of the run (beside over the call +34% over the run\'s highest ceiling, then +1%): the second timing kept');
  });

  it('keeps the first timing when the one at the end was hit harder, whichever read faster', () => {
    const first = table('first', [0.7, 0.75]);
    const again = table('again', [0.72, 0.9]); // our call faster, but beside further above it
    const kept = lessDisturbedAtEnd(first, again);
    expect(kept.name).toBe('first');
    expect(kept.late.kept).toBe('first');
    expect(lateText(kept)).toMatch(/the first timing kept$/);
    expect(lateText(table('plain', [0.7, 0.7]))).toBe('');
  });

  // run of 2026-11-28 at 50bb44e, the SIMD forward at T = 1024: timed 3 times in the run (+18%,
  // +16%, +18%), then at the end +16% over the run's highest ceiling, timed again there twice (+35%,
  // +4%). Its title had said "timed 2 times in this run (+35%, +4%)", the end's attempts under the
  // run's name, and lost the run's three.
  it('keeps the attempts in the run apart from those at the end, whichever timing is kept', async () => {
    const measureFrom = (tables) => async () => tables.shift();
    const inRun = await leastDisturbed(measureFrom([table('a1', [0.5, 0.59]), table('a2', [0.5, 0.58]), table('a3', [0.5, 0.59])]));
    const atEnd = await leastDisturbed(measureFrom([table('e1', [0.5, 0.675]), table('e2', [0.84, 0.874])]));
    const kept = lessDisturbedAtEnd(inRun, atEnd);
    expect(kept.name).toBe('e2');
    expect(kept.attempts).toBe(3);
    expect(attemptsText(kept)).toBe('timed 3 times in this run (beside over the call +18%, +16%, +18%; above +5% a table is timed again): attempt 2 kept');
    expect(lateText(kept)).toBe('timed again at the end of the run, 2 attempts (beside over the call +16% over the run\'s highest ceiling, then +35%, +4%): the second timing (attempt 2 at the end) kept');
    // The first kept: the end's attempts are still told.
    const keptFirst = lessDisturbedAtEnd(table('calm', [0.8, 0.81]), atEnd);
    expect(keptFirst.name).toBe('calm');
    expect(lateText(keptFirst)).toBe('timed again at the end of the run, 2 attempts (beside over the call +1% over the run\'s highest ceiling, then +35%, +4%): the first timing kept');
  });
});

describe('lateOrder: the tables the check at the end times again, within its budget', () => {
  it('takes only the tables over the bound, those with a target first, each group by its gap', () => {
    const tables = [
      { ...table('plain-small', [0.7, 0.75]), target: false }, // +7%
      { ...table('target-small', [0.7, 0.74]), target: true }, // +6%
      { ...table('quiet', [0.7, 0.71]), target: true }, // +1.4%: not timed again
      { ...table('plain-large', [0.5, 0.7]), target: false }, // +40%
      { ...table('target-large', [0.6, 0.72]), target: true }, // +20%
    ];
    expect(lateOrder(tables, (t) => t.target).map((i) => tables[i].name)).toEqual(['target-large', 'target-small', 'plain-large', 'plain-small']);
    expect(lateOrder(tables, () => false).map((i) => tables[i].name)).toEqual(['plain-large', 'target-large', 'plain-small', 'target-small']);
    expect(lateOrder([table('q', [0.7, 0.7])], () => true)).toEqual([]);
  });

  it('says of a table the budget did not reach that it was not timed again, and its gap', () => {
    expect(lateSkippedText(table('t', [0.5, 0.56]), 15)).toBe(
      "not timed again at the end: the check's 15-minute budget was spent (beside over the call +12% over the run's highest ceiling)",
    );
  });
});

describe('leastDisturbed within a deadline: the check at the end starts no attempt after its budget', () => {
  it('times a hit table once more only while the deadline is ahead', async () => {
    let calls = 0;
    const tables = [table('a1', [0.5, 0.6]), table('a2', [0.5, 0.6]), table('a3', [0.5, 0.6])];
    const measure = async () => tables[calls++];
    const kept = await leastDisturbed(measure, { deadline: performance.now() - 1 });
    expect(calls).toBe(1);
    expect(kept.attempts).toBe(1);
    calls = 0;
    expect((await leastDisturbed(measure, { deadline: performance.now() + 60_000 })).attempts).toBe(1 + RETIMES);
  });
});
