// The words of editing (figures/interact/messages.js) and of check mode
// (site/features/check/messages.js): every message exists in English and Chinese, takes the same
// parameters in both, and the Chinese is Chinese (the tutorials' terms, not English left over).
import { describe, expect, it } from 'vitest';
import { messageText } from '../../../web/figures/interact/messages.js';
import { CHECK_MESSAGES } from '../../../web/site/features/check/messages.js';

// Parameters a message may be given: enough of each kind for every template to fill.
const PARAMS = {
  typed: 2,
  total: 9,
  invalid: 1,
  empty: 3,
  right: 1,
  wrong: 1,
  follows: 1,
  unexplained: 1,
  count: 2,
  on: true,
  d: 3,
  sqrtD: 1.732,
  yours: 'Q',
  first: 'Q',
  stage: 'Q',
  decimals: 1,
  list: 'a',
  where: 'w',
  source: 's',
  should: 1,
  row: 1,
  col: 2,
  index: 1,
  a: 'a',
  b: 'b',
  noun: 'n',
  cell: 'c',
  rows: 3,
  cols: 4,
  matrix: 'X',
  value: 1,
  size: 'd_in',
  from: 2,
  to: 4,
  others: 'W^Q',
  got: 1,
  expected: 2,
  text: 'x',
  expectedRows: 3,
  expectedCols: 2,
  lo: 1,
  hi: 12,
  diff: 0.1,
  tolerance: 0.005,
  batch: 1,
  wrongText: 'Qᵀ K',
  rightText: 'Q Kᵀ',
  reason: 'r',
};

for (const [name, table] of [['check mode', CHECK_MESSAGES]]) {
  describe(`the words of ${name}`, () => {
    it('has every message in both languages', () => {
      expect(Object.keys(table['zh-CN']).sort()).toEqual(Object.keys(table.en).sort());
    });

    it('fills every parameter in both languages, and the Chinese has Chinese in every sentence', () => {
      for (const id of Object.keys(table.en)) {
        for (const lang of ['en', 'zh-CN']) {
          const text = messageText(table, lang, id, { ...PARAMS, wrong: 1, right: 1 });
          expect(text, `${lang} ${id}`).not.toMatch(/\{\w+\}|undefined|NaN/);
        }
        const zh = messageText(table, 'zh-CN', id, PARAMS);
        // Punctuation-only entries (a gap, a list separator) and symbols have no words to translate.
        if (/[A-Za-z]{4,}/.test(messageText(table, 'en', id, PARAMS).replace(/\b(softmax|W\^\w|Q|K|V|d_in)\b/g, ''))) {
          expect(zh, `zh-CN ${id}`).toMatch(/[\u4e00-\u9fff]/);
        }
      }
    });
  });
}
