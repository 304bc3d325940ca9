// The diagnosis of a hand calculation: every stage a student typed numbers for is marked two ways,
// against the exact value and against the value recomputed from the student's own previous
// stages (follow-through: one slip in Q does not make every later stage wrong), and when numbers
// are wrong the common mistakes (stages.js) are recomputed and the one that matches is named;
// else the cells that differ are named one by one with what they should be (a slip).
//
//   diagnose({ exact, typed, context, stages = CHECK_STAGES }) -> {
//     stages: { [id]: StageReport },   only stages with an exact value
//     first: the first stage (in order) with a typed number that is wrong, or null
//   }
//   exact:   { [id]: number[][] } every stage's exact value and the given inputs (x, wq, ...)
//   typed:   { [id]: string[][] } what the student typed, as typed ('' or missing = empty)
//   context: stages.js's context (scale, visible, ...)
//
//   StageReport = {
//     id, from,                     the stage and the stages it is computed from
//     cells: [i][j] { status: 'empty' | 'invalid' | 'right' | 'wrong'   against the exact value,
//                     follow: 'right' | 'wrong' | null   against the follow-through value (null: not typed),
//                     typed, tolerance, exact, should }  should: the follow-through value;
//                                                        tolerance: what the typed digits allow
//     counts: { total, typed, empty, invalid, right, wrong, follows, unexplained }
//                                   right/wrong against the exact value; of the wrong ones, follows:
//                                   right from the student's own previous numbers; unexplained: not
//     verdict: 'empty' | 'right' | 'follows' | 'wrong',
//     yours: [ids of the typed stages whose wrong numbers reach this one's inputs]
//     mistake: null | { id, ...params }   ids: stages.js's, 'rounding-too-early' { stage, decimals }
//     slips: null | [{ row, col, typed, should, exact, source }]   (0-based; source: stages.js)
//   }
import { parseTyped, matches } from './marks.js';
import { roundCells, sameShape } from './algebra.js';
import { CHECK_STAGES } from './stages.js';

/** At most this share of the typed numbers, and this many, are called slips rather than a wrong method. */
const SLIP_SHARE = 1 / 3;
const SLIP_MAX = 3;
const ROUNDINGS = [0, 1, 2]; // decimals a hand calculation rounds an intermediate to

/** The typed matrix of a stage as { value, tolerance } | null (empty) | { invalid } per cell, shaped like `exact`. */
function readTyped(rows, exact) {
  return exact.map((row, i) => row.map((_, j) => parseTyped(rows?.[i]?.[j])));
}

const numbersOf = (typed) => typed.flatMap((row, i) => row.map((t, j) => ({ t, i, j }))).filter(({ t }) => t && !t.invalid);

/** Whether every typed number matches `candidate` (and at least one number was typed). */
function explains(typed, candidate) {
  const numbers = numbersOf(typed);
  return numbers.length > 0 && sameShape(candidate, typed) && numbers.every(({ t, i, j }) => matches(t, candidate[i][j]));
}

/** The student's matrix where typed, `elsewhere` in the other cells: what later stages follow through from. */
const merged = (typed, elsewhere) => elsewhere.map((row, i) => row.map((x, j) => (typed[i][j] && !typed[i][j].invalid ? typed[i][j].value : x)));

/** The fewest decimals among the numbers typed (how coarsely a stage was rounded). */
const coarsest = (typed) => Math.min(...numbersOf(typed).map(({ t }) => (t.tolerance > 0 ? Math.round(-Math.log10(2 * t.tolerance)) : Infinity)));

export function diagnose({ exact, typed, context, stages = CHECK_STAGES }) {
  // Follow-through values: the student's numbers where typed, elsewhere what their earlier
  // numbers give (the exact given inputs at the start).
  const values = { ...exact };
  const reads = {};
  const origins = {}; // stage id -> the typed stages whose wrong numbers reach its values
  const feeds = {}; // stage id -> the typed stages whose numbers reach its values
  const reports = {};
  let first = null;
  for (const stage of stages) {
    const ex = exact[stage.id];
    if (!ex || !stage.from.every((id) => values[id])) continue;
    const t = readTyped(typed?.[stage.id], ex);
    reads[stage.id] = t;
    const recomputed = stage.compute(values, context);
    const follow = sameShape(recomputed, ex) ? recomputed : ex;
    const report = markStage(stage, t, ex, follow);
    report.yours = [...new Set(stage.from.flatMap((id) => origins[id] ?? []))];
    if (report.verdict === 'wrong') explainWrong(report, stage, t, values, context, follow);
    const fedBy = [...new Set(stage.from.flatMap((id) => feeds[id] ?? []))];
    if (report.verdict === 'follows') report.mistake = roundedInputs(fedBy, reads, exact);
    if (first === null && report.counts.wrong > 0) first = stage.id;
    reports[stage.id] = report;
    values[stage.id] = merged(t, follow);
    const untyped = report.counts.typed < report.counts.total;
    origins[stage.id] = [...new Set([...(report.counts.wrong > 0 ? [stage.id] : []), ...(untyped ? report.yours : [])])];
    feeds[stage.id] = [...new Set([...(report.counts.typed > 0 ? [stage.id] : []), ...(untyped ? fedBy : [])])];
  }
  return { stages: reports, first };
}

function markStage(stage, t, ex, follow) {
  const counts = { total: 0, typed: 0, empty: 0, invalid: 0, right: 0, wrong: 0, follows: 0, unexplained: 0 };
  const cells = ex.map((row, i) =>
    row.map((x, j) => {
      counts.total++;
      const n = t[i][j];
      const cell = { status: 'empty', follow: null, typed: n?.value ?? null, tolerance: n?.tolerance ?? null, exact: x, should: follow[i][j] };
      if (n === null) counts.empty++;
      else if (n.invalid) {
        cell.status = 'invalid';
        counts.invalid++;
      } else {
        counts.typed++;
        cell.status = matches(n, x) ? 'right' : 'wrong';
        // A number right against the exact value is never blamed on the follow-through.
        cell.follow = cell.status === 'right' || matches(n, follow[i][j]) ? 'right' : 'wrong';
        if (cell.status === 'right') counts.right++;
        else {
          counts.wrong++;
          if (cell.follow === 'right') counts.follows++;
          else counts.unexplained++;
        }
      }
      return cell;
    }),
  );
  const verdict = counts.typed === 0 ? 'empty' : counts.wrong === 0 ? 'right' : counts.unexplained === 0 ? 'follows' : 'wrong';
  return { id: stage.id, from: stage.from, cells, counts, verdict, yours: [], mistake: null, slips: null };
}

/** A named mistake that gives every typed number, else the cells that differ as slips. */
function explainWrong(report, stage, t, values, context, follow) {
  for (const [id, recompute] of stage.mistakes) {
    const candidate = recompute(values, context);
    if (candidate && explains(t, candidate)) {
      report.mistake = { id };
      return;
    }
  }
  for (const decimals of ROUNDINGS) {
    const rounded = { ...values };
    for (const id of stage.from) rounded[id] = roundCells(values[id], decimals);
    const changed = stage.from.filter((id) => rounded[id].some((row, i) => row.some((x, j) => x !== values[id][i][j])));
    if (changed.length > 0 && explains(t, stage.compute(rounded, context))) {
      report.mistake = { id: 'rounding-too-early', stage: changed[0], decimals };
      return;
    }
  }
  const wrong = [];
  report.cells.forEach((row, i) =>
    row.forEach((cell, j) => {
      if (cell.follow === 'wrong') wrong.push({ row: i, col: j, typed: cell.typed, should: follow[i][j], exact: cell.exact, source: stage.source(i, j) });
    }),
  );
  if (wrong.length <= Math.min(SLIP_MAX, Math.max(1, Math.floor(report.counts.typed * SLIP_SHARE)))) report.slips = wrong;
}

/**
 * A stage that follows from the student's earlier numbers (typedInputs: the typed stages that
 * reach it), all of them right, but not from the exact values: they were rounded too early. -> { id: 'rounding-too-early', stage, decimals } or null.
 */
function roundedInputs(typedInputs, reads, exact) {
  const allRight = typedInputs.length > 0 && typedInputs.every((id) => numbersOf(reads[id]).every(({ t, i, j }) => matches(t, exact[id][i][j])));
  if (!allRight) return null;
  const coarse = typedInputs.map((id) => ({ id, decimals: coarsest(reads[id]) })).sort((a, b) => a.decimals - b.decimals)[0];
  return { id: 'rounding-too-early', stage: coarse.id, decimals: coarse.decimals };
}
