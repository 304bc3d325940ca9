// The sentence under a checked stage (site/features/check/check-grid.js's summaryOf): counts that
// add up, nothing called right when nothing was typed, and the diagnosis's mistake or slips in words.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../web/model/check/diagnose.js';
import { givenStage } from '../../../web/model/check/stages.js';
import { summaryOf } from '../../../web/site/features/check/check-grid.js';

const EXACT = [
  [0.25, 0.75],
  [0.5, 0.5],
];
/** The report of typed numbers against EXACT, marked against the exact value alone. */
const reportOf = (typed) =>
  diagnose({ exact: { weights: EXACT }, typed: { weights: typed }, context: {}, stages: [givenStage('weights', EXACT)] }).stages.weights;
const say = (typed, lang = 'en') => summaryOf(reportOf(typed), typed, { lang, first: null, d: 2 });

describe('the summary of a checked stage', () => {
  const cases = [
    [
      'nothing typed says so, and calls nothing right',
      [
        ['', ''],
        ['', ''],
      ],
      'You have not typed a number yet.',
    ],
    [
      'only a word typed counts it as not a number, not as right',
      [
        ['x', ''],
        ['', ''],
      ],
      '1 entry is not a number.',
    ],
    [
      'everything right, some left empty',
      [
        ['0.25', '0.75'],
        ['', ''],
      ],
      'All 2 numbers you typed are right. 2 left empty.',
    ],
    [
      'one number typed, right',
      [
        ['1/4', ''],
        ['', ''],
      ],
      'The number you typed is right. 3 left empty.',
    ],
    // A stage marked against its exact value alone (a gradient, say) names the cell without a source.
    [
      'one wrong cell among right ones, named with what it should be',
      [
        ['0.25', '0.75'],
        ['0.4', '0.5'],
      ],
      '3 of 4 numbers are right, 1 is not. A slip in one cell: row 2, column 1 should be 0.5, not 0.4.',
    ],
    [
      'full-width digits read as digits',
      [
        ['０．２５', '０．７５'],
        ['０．５', '０．５'],
      ],
      'All 4 numbers you typed are right.',
    ],
  ];
  for (const [name, typed, sentence] of cases) it(name, () => expect(say(typed)).toBe(sentence));

  it('says the same in Chinese, counts included', () => {
    expect(
      say(
        [
          ['0.25', '0.75'],
          ['0.4', '0.5'],
        ],
        'zh-CN',
      ),
    ).toBe('4 个数中 3 个正确，1 个不对。有一处笔误：第 2 行第 1 列应为 0.5，不是 0.4。');
  });
});

describe('every preset’s stages in check mode', () => {
  it('diagnose and summarise without throwing, whatever is typed', async () => {
    const { loadAttention } = await import('../../../web/src/index.js');
    const { compute } = await import('../../../web/model/compute/index.js');
    const { PRESETS } = await import('../../../web/model/presets/index.js');
    const { presetPage } = await import('../../../web/site/page-state.js');
    const { stageReports, diagnosisOf } = await import('../../../web/site/features/check/reports.js');
    const attn = await loadAttention();
    const STAGES = {
      q: (h) => h.projected?.q ?? h.q,
      k: (h) => h.projected?.k ?? h.k,
      v: (h) => h.v,
      scores: (h) => h.runs[0].raw,
      scaled: (h) => h.runs[0].scaled,
      masked: (h) => h.runs[0].masked,
      weights: (h) => h.runs[0].weights,
      output: (h) => h.runs[0].output,
    };
    let summaries = 0;
    for (const preset of PRESETS) {
      const base = presetPage(preset.id);
      const first = compute(attn, base);
      // Every stage typed: its exact numbers to 2 decimals, one cell slipped, one a word, one '-∞'.
      const checks = {};
      for (const [id, pick] of Object.entries(STAGES)) {
        const t = pick(first.heads[0]);
        const [R, C] = t.shape.slice(-2);
        const B = t.data.length / (R * C);
        checks[id] = Array.from({ length: B }, (_, b) =>
          Array.from({ length: R }, (_, i) =>
            Array.from({ length: C }, (_, j) => {
              const x = t.data[(b * R + i) * C + j];
              return i === 0 && j === 0 ? '9.5' : i === 0 && j === 1 ? 'x' : x === -Infinity ? '-∞' : x.toFixed(2);
            }),
          ),
        );
      }
      const state = { ...base, checks, checked: Object.fromEntries(Object.keys(checks).map((id) => [id, 'checked'])) };
      const result = compute(attn, state);
      const ctx = { state, result, head: 0 };
      for (const [id, pick] of Object.entries(STAGES)) {
        for (const report of stageReports(ctx, id, pick(result.heads[0]))) {
          for (const lang of ['en', 'zh-CN']) {
            const text = summaryOf(report, checks[id][0], { lang, first: diagnosisOf(ctx)?.first ?? null, d: 2, later: [] });
            expect(text, `${preset.id} ${id} ${lang}`).not.toMatch(/undefined|NaN|\{\w+\}/);
            summaries++;
          }
        }
      }
    }
    expect(summaries).toBeGreaterThan(100);
  });
});
