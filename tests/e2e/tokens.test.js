// A sentence typed without spaces works as typed: the explorer's token text field and the import
// dialog's Tokens field split it into words with Intl.Segmenter (web/model/state/tokens.js), and
// the number of words sets the example's size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSafetensors } from '../../web/io/index.js';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';

const SENTENCE = '我爱自然语言处理';
const WORDS = ['我', '爱', '自然', '语言', '处理'];

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

const stateOf = (page) => page.evaluate(() => window.attentionLab.store.get());

describe('typed tokens', () => {
  it('the token text field splits "我爱自然语言处理" into five words, labels the rows with them and makes X five rows', async () => {
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN');
    const field = page.getByRole('textbox', { name: '词元文本' });
    expect(await field.inputValue()).toBe('Token1 Token2 Token3');
    await field.fill(SENTENCE);
    await field.press('Enter');
    await settle(page);
    const state = await stateOf(page);
    expect(state.tokens).toEqual(WORDS);
    expect(state.x.length).toBe(5);
    expect(await page.$$eval('svg[data-stage="weights"] text.attn-axis[text-anchor="end"]', (labels) => labels.map((l) => l.textContent))).toEqual(WORDS);
    expect(await field.inputValue(), 'the field shows the words as split').toBe(WORDS.join(' '));
    expect(problems).toEqual([]);
  });

  it('words typed with spaces stay as typed; too many tokens are refused with a message and change nothing', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const field = page.getByRole('textbox', { name: 'Token text' });
    await field.fill('the cat sat on the mat');
    await field.press('Enter');
    await settle(page);
    expect((await stateOf(page)).tokens).toEqual(['the', 'cat', 'sat', 'on', 'the', 'mat']);
    await field.fill(Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '));
    await field.press('Enter');
    await settle(page);
    expect(await page.getByRole('alert').filter({ hasText: 'tokens' }).textContent()).toBe('17 tokens: the example holds 1 to 16.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect((await stateOf(page)).tokens).toHaveLength(6);
    expect(problems).toEqual([]);
  });

  it('the query and key token fields of a Q, K, V example (d2l) set the queries and the keys', async () => {
    const { page, problems } = await site.open('?preset=d2l');
    await page.getByRole('textbox', { name: 'Query tokens' }).fill('猫坐在垫子上');
    await page.getByRole('textbox', { name: 'Query tokens' }).press('Enter');
    await settle(page);
    const state = await stateOf(page);
    expect(state.tokens.join('')).toBe('猫坐在垫子上');
    expect(state.tokens.length).toBeGreaterThan(1);
    expect(state.q[0].length).toBe(state.tokens.length);
    expect(problems).toEqual([]);
  });

  it('the import dialog\'s Tokens field splits "我爱自然语言处理" into the five rows of the file\'s X', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const x = [
      [1, 0],
      [0, 1],
      [1, 1],
      [2, 0],
      [0, 2],
    ];
    const w = [
      [1, 0],
      [0, 1],
    ];
    await page.setInputFiles('[data-action="import"] input[type="file"]', {
      name: 'five.safetensors',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(writeSafetensors({ x, wq: w, wk: w, wv: w })),
    });
    await page.waitForSelector('[data-role="import-dialog"][open]');
    await page.fill('[data-field="tokens"]', SENTENCE);
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-role="import-dialog"]:not([open])', { state: 'attached' });
    await settle(page);
    expect((await stateOf(page)).tokens).toEqual(WORDS);
    expect(problems).toEqual([]);
  });
});
