// The sentence under a checked stage (site/features/check/check-grid.js's summaryOf): counts that
// add up, nothing called right when nothing was typed, and the diagnosis's mistake or slips in words.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../web/model/check/diagnose.js';
import { givenStage } from '../../web/model/check/stages.js';
import { summaryOf } from '../../web/site/features/check/check-grid.js';

const EXACT = [[0.25, 0.75], [0.5, 0.5]];
/** The report of typed numbers against EXACT, marked against the exact value alone. */
const reportOf = (typed) => diagnose({ exact: { weights: EXACT }, typed: { weights: typed }, context: {}, stages: [givenStage('weights', EXACT)] }).stages.weights;
const say = (typed, lang = 'en') => summaryOf(reportOf(typed), typed, { lang, first: null, d: 2 });

describe('the summary of a checked stage', () => {
  const cases = [
    ['nothing typed says so, and calls nothing right', [['', ''], ['', '']], 'You have not typed a number yet.'],
    ['only a word typed counts it as not a number, not as right', [['x', ''], ['', '']], '1 entry is not a number.'],
    ['everything right, some left empty', [['0.25', '0.75'], ['', '']], 'All 2 numbers you typed are right. 2 left empty.'],
    ['one number typed, right', [['1/4', ''], ['', '']], 'The number you typed is right. 3 left empty.'],
    // A stage marked against its exact value alone (a gradient, say) names the cell without a source.
    ['one wrong cell among right ones, named with what it should be', [['0.25', '0.75'], ['0.4', '0.5']],
      '3 of 4 numbers are right, 1 is not. A slip in one cell: row 2, column 1 should be 0.5, not 0.4.'],
    ['full-width digits read as digits', [['０．２５', '０．７５'], ['０．５', '０．５']], 'All 4 numbers you typed are right.'],
  ];
  for (const [name, typed, sentence] of cases) it(name, () => expect(say(typed)).toBe(sentence));

  it('says the same in Chinese, counts included', () => {
    expect(say([['0.25', '0.75'], ['0.4', '0.5']], 'zh-CN')).toBe('4 个数中 3 个正确,1 个不对。有一处笔误:第 2 行第 1 列应为 0.5,不是 0.4。');
  });
});
