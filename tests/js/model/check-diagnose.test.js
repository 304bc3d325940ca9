// The diagnosis of a hand calculation (web/model/check/diagnose.js), each common mistake planted
// in numbers computed here by the float64 reference (tests/reference), typed as a student rounds
// them: the diagnosis marks every stage against the exact value and against the student's own
// previous numbers, and names the mistake (or the slipped cells).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { compute } from '../../../web/model/compute/index.js';
import { checkInputs } from '../../../web/model/check/from-result.js';
import { diagnose } from '../../../web/model/check/diagnose.js';
import { presetRaw, presetState } from '../../../web/model/presets/index.js';
import { matmul, selfAttention, softmaxRow, transpose } from '../../reference/matrices.js';
import { SEED_002, SEED_002_PRINTED as PRINTED } from '../../support/seed-002.js';

// seed 002 (the Chinese tutorial, tests/support/seed-002.js): X (3, 4), W (4, 3); T = d = d_v = 3,
// so every transposition mistake has the right shape to be typed.
const everyKey = (T) => Array.from({ length: T }, () => Array(T).fill(true));
const causal = (T) => Array.from({ length: T }, (_, i) => Array.from({ length: T }, (_, j) => j <= i));

/** Every stage of an example: the reference's, with the masked scores (-Infinity where hidden). */
function exactOf(inputs, visible) {
  const d = inputs.wq[0].length;
  const r = selfAttention(inputs, { causal: visible.some((row) => row.includes(false)) ? 'top-left' : 'none' });
  const masked = r.scaled.map((row, i) => row.map((z, j) => (visible[i][j] ? z : -Infinity)));
  return { exact: { ...inputs, q: r.q, k: r.k, v: r.v, scores: r.scores, scaled: r.scaled, masked, weights: r.weights, output: r.output }, d };
}

const contextOf = (d, visible) => ({ scaled: true, scale: 1 / Math.sqrt(d), d, visible, fill: -Infinity, bias: null });
/** A matrix as a student writes it down: `decimals` places. */
const typedAs = (m, decimals = 2) => m.map((row) => row.map((x) => (x === -Infinity ? '-∞' : x.toFixed(decimals))));
const softmaxRows = (m) => m.map(softmaxRow);

function run(typed, { inputs = SEED_002, visible = everyKey(inputs.x.length) } = {}) {
  const { exact, d } = exactOf(inputs, visible);
  return { ...diagnose({ exact, typed, context: contextOf(d, visible) }), exact };
}

/** "stage: verdict (mistake)" lines, to print what the diagnosis said when a case fails. */
const said = (result) =>
  Object.values(result.stages)
    .map((s) => `${s.id}: ${s.verdict}${s.mistake ? ` (${s.mistake.id})` : ''}${s.slips ? ` slips ${JSON.stringify(s.slips.map((c) => [c.row, c.col]))}` : ''}`)
    .join('\n');

describe('diagnose: marks against the exact value', () => {
  it('a calculation right at every stage is right everywhere and names no first mistake', () => {
    const { exact } = exactOf(SEED_002, everyKey(3));
    const typed = Object.fromEntries(['q', 'k', 'v', 'scores', 'scaled', 'weights', 'output'].map((id) => [id, typedAs(exact[id], 3)]));
    const result = run(typed);
    expect(result.first, said(result)).toBeNull();
    for (const id of Object.keys(typed)) expect(result.stages[id].verdict, `${id}\n${said(result)}`).toBe('right');
  });

  it('counts a partly typed stage as typed, empty and not-a-number, never as wrong', () => {
    const result = run({ q: [['1', 'x', ''], ['2']] });
    expect(result.stages.q.counts).toEqual({ total: 9, typed: 2, empty: 6, invalid: 1, right: 2, wrong: 0, follows: 0, unexplained: 0 });
    expect(result.stages.q.verdict).toBe('right');
    expect(result.stages.scores.verdict).toBe('empty');
  });
});

describe('diagnose: follow-through', () => {
  it('a slip in one cell of Q is named with what it should be, and the scores computed from that Q follow from it', () => {
    const { exact } = exactOf(SEED_002, everyKey(3));
    const q = exact.q.map((row) => row.slice());
    q[0][1] = 0; // X row 1 times W^Q column 2 is 1
    const result = run({ q: typedAs(q, 0), scores: typedAs(matmul(q, transpose(exact.k)), 0) });
    expect(result.first).toBe('q');
    expect(result.stages.q.verdict, said(result)).toBe('wrong');
    expect(result.stages.q.slips).toEqual([
      {
        row: 0,
        col: 1,
        typed: 0,
        should: 1,
        exact: 1,
        source: [
          ['x', 'row', 0],
          ['wq', 'col', 1],
        ],
      },
    ]);
    expect(result.stages.q.cells[0][1]).toMatchObject({ status: 'wrong', follow: 'wrong', typed: 0, tolerance: 0.5 });
    const scores = result.stages.scores;
    expect(scores.verdict, said(result)).toBe('follows');
    expect(scores.yours).toEqual(['q']);
    // Row 1 of the scores is wrong against the exact value in 2 cells (Q row 1 · K row 2 is 6 either
    // way), and both follow from the student's Q.
    expect(scores.counts).toMatchObject({ typed: 9, right: 7, wrong: 2, follows: 2, unexplained: 0 });
  });

  it('numbers from inputs typed right but rounded too early are named as rounding too early', () => {
    const { exact } = exactOf(SEED_002, everyKey(3));
    const scaled = typedAs(exact.scaled, 1); // right to 1 decimal
    const weights = softmaxRows(scaled.map((row) => row.map(Number)));
    const result = run({ scaled, weights: typedAs(weights, 3) });
    expect(result.stages.scaled.verdict).toBe('right');
    expect(result.stages.weights.verdict, said(result)).toBe('follows');
    expect(result.stages.weights.mistake).toEqual({ id: 'rounding-too-early', stage: 'scaled', decimals: 1 });
  });
});

describe('diagnose: each common mistake, planted', () => {
  const { exact } = exactOf(SEED_002, everyKey(3));
  const sqrtD = Math.sqrt(3);
  const cases = [
    ['no 1/sqrt(d) scaling in the scaled scores', { scaled: typedAs(exact.scores) }, 'scaled', 'no-scaling'],
    ['1/d instead of 1/sqrt(d)', { scaled: typedAs(exact.scores.map((row) => row.map((s) => s / 3))) }, 'scaled', 'scaled-by-d'],
    ['no scaling, going from the scores straight to the weights', { weights: typedAs(softmaxRows(exact.scores), 3) }, 'weights', 'no-scaling'],
    ['the softmax over columns instead of rows', { weights: typedAs(transpose(softmaxRows(transpose(exact.scaled))), 3) }, 'weights', 'softmax-columns'],
    ['K not transposed (Q K)', { scores: typedAs(matmul(exact.q, exact.k), 0) }, 'scores', 'k-not-transposed'],
    ['queries and keys as columns (Qᵀ K)', { scores: typedAs(matmul(transpose(exact.q), exact.k), 0) }, 'scores', 'column-notation'],
    ['the weights times V in the wrong order (V P)', { output: typedAs(matmul(exact.v, exact.weights)) }, 'output', 'wrong-order'],
    ['the weights transposed (Pᵀ V)', { output: typedAs(matmul(transpose(exact.weights), exact.v)) }, 'output', 'weights-transposed'],
    [
      'the weights from scaled scores rounded to whole numbers',
      { weights: typedAs(softmaxRows(exact.scaled.map((row) => row.map(Math.round))), 3) },
      'weights',
      'rounding-too-early',
    ],
  ];
  for (const [name, typed, stage, mistake] of cases) {
    it(`names ${name}`, () => {
      const result = run(typed);
      expect(result.stages[stage].verdict, said(result)).toBe('wrong');
      expect(result.stages[stage].mistake?.id, said(result)).toBe(mistake);
      expect(result.first).toBe(stage);
    });
  }
  expect(sqrtD).toBeGreaterThan(1); // the planted scalings differ from the right one at d = 3

  it('names the column-vector notation W x in a projection with a square W (Q = X Wᵀ)', () => {
    const inputs = {
      x: [
        [1, 2, 0],
        [0, 1, 3],
      ],
      wq: [
        [1, 2, 0],
        [0, 1, 0],
        [1, 0, 1],
      ],
      wk: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      wv: [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    };
    const result = run({ q: typedAs(matmul(inputs.x, transpose(inputs.wq)), 0) }, { inputs });
    expect(result.stages.q.mistake?.id, said(result)).toBe('column-notation');
  });

  it('names the mask applied after the softmax (hidden weights set to 0, rows not renormalised)', () => {
    const visible = causal(3);
    const { exact: ex } = exactOf(SEED_002, visible);
    const late = softmaxRows(ex.scaled).map((row, i) => row.map((p, j) => (visible[i][j] ? p : 0)));
    const result = run({ weights: typedAs(late, 3) }, { visible });
    expect(result.stages.weights.mistake?.id, said(result)).toBe('mask-after-softmax');
  });

  it('names at most 3 slips: four wrong cells of 36 are more than slips, even with the rest right', () => {
    const inputs = { x: Array.from({ length: 6 }, (_, i) => [i, 1, 0, i % 2]), wq: SEED_002.wq, wk: SEED_002.wk, wv: SEED_002.wv };
    const { exact: ex } = exactOf(inputs, everyKey(6));
    const typed = typedAs(ex.scores, 0);
    for (const [i, j] of [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
    ])
      typed[i][j] = '99';
    expect(run({ scores: typed }, { inputs }).stages.scores).toMatchObject({
      verdict: 'wrong',
      mistake: null,
      slips: null,
      counts: { typed: 36, unexplained: 4 },
    });
    typed[3][3] = typedAs(ex.scores, 0)[3][3];
    expect(run({ scores: typed }, { inputs }).stages.scores.slips).toHaveLength(3);
  });

  it('calls many unrelated wrong numbers wrong without inventing a mistake or a list of slips', () => {
    const result = run({
      scores: [
        ['9', '9', '9'],
        ['9', '9', '9'],
        ['9', '9', '9'],
      ],
    });
    expect(result.stages.scores).toMatchObject({ verdict: 'wrong', mistake: null, slips: null });
  });
});

describe('diagnose: the seed-002 tutorial as printed', () => {
  it('finds the slips in X times W^Q first and says which later numbers follow from the text’s own', () => {
    const result = run(PRINTED);
    expect(result.first).toBe('q');
    // Row 1 of X times column 2 of W^Q is 1 (the text has 0); row 3 times column 2 is 2 (the text has 1).
    expect(result.stages.q.slips.map(({ row, col, typed, should }) => ({ row, col, typed, should }))).toEqual([
      { row: 0, col: 1, typed: 0, should: 1 },
      { row: 2, col: 1, typed: 1, should: 2 },
    ]);
    expect(result.stages.k.slips.map(({ row, col }) => [row, col])).toEqual([
      [0, 1],
      [2, 2],
    ]);
    expect(result.stages.v.slips.map(({ row, col }) => [row, col])).toEqual([
      [1, 0],
      [2, 2],
    ]);
    // The scaled scores are the text's own scores over sqrt(3): all 9 wrong against the exact, all 9 follow.
    expect(result.stages.scaled).toMatchObject({ verdict: 'follows', yours: ['scores'], counts: { wrong: 9, follows: 9 } });
    // The output is the text's weights times its V, to its 1 decimal, in 7 of 9 cells.
    const output = result.stages.output;
    expect(output.counts.follows + output.counts.right).toBe(7);
    expect(output.slips.map(({ row, col }) => [row, col])).toEqual([
      [2, 1],
      [2, 2],
    ]);
    expect(output.yours).toEqual(['weights', 'v']);
  });
});

describe('checkInputs: the explorer’s computed state as a diagnosis input', () => {
  let attn;
  beforeAll(async () => {
    attn = await loadAttention();
  });

  it('the seed-002 preset opens with the tutorial’s numbers, and the diagnosis of its computed state finds the slip in X times W^Q', () => {
    const raw = presetRaw('seed-002');
    const state = presetState('seed-002');
    const input = checkInputs(state, compute(attn, state));
    const typed = Object.fromEntries(Object.entries(raw.checks).map(([id, [rows]]) => [id, rows]));
    const result = diagnose({ ...input, typed });
    expect(result.first).toBe('q');
    expect(result.stages.q.slips[0]).toMatchObject({
      row: 0,
      col: 1,
      typed: 0,
      should: 1,
      source: [
        ['x', 'row', 0],
        ['wq', 'col', 1],
      ],
    });
    expect(result.stages.scaled.verdict).toBe('follows');
  });

  it('with a causal mask and ALiBi the follow-through of exact numbers is right at every stage', () => {
    const state = presetState('alibi');
    const input = checkInputs(state, compute(attn, state));
    expect(input.context.bias).not.toBeNull();
    const typed = Object.fromEntries(['q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output'].map((id) => [id, typedAs(input.exact[id], 4)]));
    const result = diagnose({ ...input, typed });
    for (const id of Object.keys(typed)) expect(result.stages[id].verdict, said(result)).toBe('right');
  });

  it('with RoPE the scores are checked against their exact value alone, not followed from the unrotated Q and K', () => {
    const state = presetState('rotary');
    const input = checkInputs(state, compute(attn, state));
    const result = diagnose({ ...input, typed: { scores: typedAs(input.exact.scores, 4), weights: typedAs(input.exact.weights, 4) } });
    expect(result.stages.scores.from).toEqual([]);
    expect(result.stages.scores.verdict).toBe('right');
    expect(result.stages.weights.verdict).toBe('right');
  });

  it('follows nothing through for additive scoring or a batch of several', () => {
    const state = presetState('d2l');
    expect(checkInputs(state, compute(attn, state))).toBeNull();
  });
});
