// The explorer in Chinese: ?lang=zh-CN (or a Chinese browser) shows no English UI string outside
// the parts kept in Latin letters (tests/support/english.js: formulas, numbers, token text, names,
// and the areas another pass translates), <html lang> follows the language, the masthead's switch
// changes it in place, and the links the page hands out keep it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';
import { englishOnPage, KEPT, NAMES } from '../support/english.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The English words left on the page, one line each: where, the text, the words. */
async function englishLeft(page) {
  const tokens = await page.evaluate(() => [...window.attentionLab.store.get().tokens, ...(window.attentionLab.store.get().keyTokens ?? [])]);
  const found = await page.evaluate(englishOnPage, { kept: KEPT, names: [...NAMES], tokens });
  return found.map((f) => `${f.where}: ${f.text} [${f.words.join(' ')}]`);
}

describe('the explorer in Chinese', () => {
  it.each(['seed-004', 'seed-002', 'd2l', 'sentence', 'alibi', 'decode'])(
    '?lang=zh-CN shows preset %s with no English UI string and <html lang="zh-CN">',
    async (preset) => {
      const { page, problems } = await site.open(`?preset=${preset}&lang=zh-CN`);
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      expect(await englishLeft(page)).toEqual([]);
      expect(await page.locator('.intro-origin').textContent()).toMatch(/[\u4e00-\u9fff]/);
      expect(problems).toEqual([]);
    },
  );

  it.each([
    ['weights', 'seed-004'],
    ['masked', 'sliding-window'],
    ['scores', 'd2l'],
    ['q', 'seed-002'],
    ['output', 'seed-002'],
  ])('the explanation of a %s number (%s) is in Chinese', async (stage, preset) => {
    const { page, problems } = await site.open(`?preset=${preset}&lang=zh-CN`);
    // The last cell: in the sliding window's masked scores, key 1 is hidden from query 6.
    const cells = page.locator(`svg[data-stage="${stage}"] .cell`);
    await cells.nth(stage === 'masked' ? 30 : (await cells.count()) - 1).hover();
    await page.waitForSelector('.explain-card');
    expect(await page.locator('.explain-card .explain-heading').textContent()).toMatch(/[\u4e00-\u9fff]/);
    expect(await englishLeft(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a Chinese browser gets the Chinese page without ?lang=, an English one the English page', async () => {
    const zh = await site.open('?preset=seed-002', { locale: 'zh-CN' });
    expect(await zh.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await zh.page.getByRole('button', { name: '复制链接' }).count()).toBe(1);
    const en = await site.open('?preset=seed-002', { locale: 'en-GB' });
    expect(await en.page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await en.page.getByRole('button', { name: 'Copy link' }).count()).toBe(1);
    expect([...zh.problems, ...en.problems]).toEqual([]);
  });

  it('the masthead switch changes the language: the state, <html lang> and the focus follow', async () => {
    const { page, problems } = await site.open('?preset=sentence');
    await page.getByRole('radio', { name: 'Heatmap' }).click();
    await page.getByRole('radiogroup', { name: 'Language' }).getByRole('radio', { name: '中文' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && window.attentionLab);
    await settle(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await page.getByRole('radio', { name: '热力图' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('中文');
    expect(await englishLeft(page)).toEqual([]);
    expect(new URL(page.url()).searchParams.get('lang')).toBe('zh-CN');
    await page.getByRole('radiogroup', { name: '语言' }).getByRole('radio', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en' && window.attentionLab);
    expect(await page.getByRole('button', { name: 'Copy link' }).count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("the Embed dialog's element carries lang, its iframe keeps ?lang=, and embed.html takes it for <html lang> and the figure", async () => {
    const { page, problems } = await site.open('?preset=d2l&lang=zh-CN');
    await page.getByRole('button', { name: /嵌入/ }).first().click();
    await page.locator('dialog.embed-dialog input[value="element"]').check();
    expect(await page.locator('textarea.embed-snippet').inputValue()).toMatch(/<attn-figure[^>]* lang="zh-CN"[ >]/);
    await page.locator('dialog.embed-dialog input[value="iframe"]').check();
    const snippet = await page.locator('textarea.embed-snippet').inputValue();
    const src = /<iframe src="([^"]+)"/.exec(snippet)[1].replace(/&amp;/g, '&');
    expect(new URL(src).searchParams.get('lang')).toBe('zh-CN');
    await page.goto(src);
    await page.waitForFunction(() => document.querySelector('attn-figure')?.getAttribute('lang'));
    expect(await page.evaluate(() => [document.documentElement.lang, document.querySelector('attn-figure').getAttribute('lang')])).toEqual(['zh-CN', 'zh-CN']);
    expect(problems).toEqual([]);
  });

  it('Copy link keeps ?lang=, and the link opens in that language', async () => {
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN', { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.getByRole('button', { name: '复制链接' }).click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(new URL(link).searchParams.get('lang')).toBe('zh-CN');
    const again = await site.open(link.slice(link.indexOf('?')));
    expect(await again.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect([...problems, ...again.problems]).toEqual([]);
  });
});
