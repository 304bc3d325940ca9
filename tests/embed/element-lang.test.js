// The elements' own words in the page's language: the lang attribute, else the nearest ancestor's
// lang or <html lang>, else English; a lang value other than en or zh-CN is named in the figure.
// Real Chromium, the raw sources (as elements.test.js).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elementsPage, rendered, startPages } from '../support/pages.js';

let pages;
beforeAll(async () => {
  pages = await startPages();
});
afterAll(async () => {
  await pages?.close();
});

async function show(name, body, selectors = []) {
  await pages.write(name, elementsPage(body));
  const opened = await pages.open(name);
  for (const selector of selectors) await rendered(opened.page, selector);
  return opened;
}

/** The toolbar's words of the element `selector`: the menu's label, names and notes. */
const toolbarWords = (page, selector) =>
  page.evaluate((s) => {
    const root = document.querySelector(s).shadowRoot;
    const summary = root.querySelector('summary');
    return {
      label: summary.textContent,
      name: summary.getAttribute('aria-label'),
      title: summary.title,
      note: root.querySelector('[data-export="html"] .menu-item-note').textContent,
      toolbar: root.querySelector('.toolbar').getAttribute('aria-label'),
    };
  }, selector);

// English words of two letters or more; format names (SVG, PNG, HTML) are the same in both languages.
const englishIn = (words) =>
  Object.values(words)
    .join(' ')
    .replace(/\b(?:SVG|PNG|HTML|CSV)\b/g, '')
    .match(/[A-Za-z]{2,}/g) ?? [];

describe('the elements speak the page’s language', () => {
  it('lang="zh-CN" gives a toolbar and export menu with no English word', async () => {
    const { page, problems } = await show('lang-zh.html', '<attn-figure id="f" lang="zh-CN" preset="seed-004" stages="weights"></attn-figure>', ['#f']);
    const words = await toolbarWords(page, '#f');
    expect(englishIn(words), JSON.stringify(words)).toEqual([]);
    expect(words.label).toBe('导出');
    expect(problems).toEqual([]);
  });

  it('takes <html lang> and an ancestor’s lang when the element has none, else English', async () => {
    const body = '<attn-heatmap id="en" weights="[[1]]"></attn-heatmap><div lang="zh-CN"><attn-heatmap id="zh" weights="[[1]]"></attn-heatmap></div>';
    const { page } = await show('lang-ancestor.html', body, ['#en', '#zh']);
    expect((await toolbarWords(page, '#en')).label).toBe('Export');
    expect((await toolbarWords(page, '#zh')).label).toBe('导出');
  });

  it('redraws in the new language when the lang attribute changes', async () => {
    const { page } = await show('lang-switch.html', '<attn-heatmap id="h" lang="en" weights="[[0.5, 0.5]]"></attn-heatmap>', ['#h']);
    expect((await toolbarWords(page, '#h')).label).toBe('Export');
    await page.evaluate(() => document.querySelector('#h').setAttribute('lang', 'zh-CN'));
    await page.waitForFunction(() => document.querySelector('#h').shadowRoot.querySelector('summary').textContent === '导出');
    await page.evaluate(() => document.querySelector('#h').setAttribute('lang', 'en'));
    await page.waitForFunction(() => document.querySelector('#h').shadowRoot.querySelector('summary').textContent === 'Export');
  });

  it('names lang when its value is neither en nor zh-CN', async () => {
    const { page } = await show('lang-bad.html', '<attn-heatmap id="h" lang="fr" weights="[[1]]"></attn-heatmap>');
    await page.waitForFunction(() => document.querySelector('#h').shadowRoot.querySelector('.status.error'));
    const message = await page.evaluate(() => document.querySelector('#h').shadowRoot.querySelector('.status').textContent);
    expect(message).toMatch(/lang: expected 'en' or 'zh-CN', got "fr"/);
  });
});
