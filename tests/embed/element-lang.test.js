// The elements' own words in the page's language: the lang attribute, else the nearest ancestor's
// lang or <html lang>, else English; a lang value other than en or zh-CN is named in the figure.
// In zh-CN the figures inside say no English word either (axis titles, cells, readouts, captions,
// the model view's labels, errors), and a saved HTML file of a zh-CN figure opens in zh-CN.
// zh-CN's words load on demand: a page in English never requests them.
// Real Chromium, the raw sources (as elements.test.js).
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standaloneHtml } from '../../web/figures/index.js';
import { englishInFigure } from '../support/english.js';
import { openOffline } from '../support/offline.js';
import { elementsPage, rendered, savedHtml, startPages } from '../support/pages.js';

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

/** The requested URLs of zh-CN's words (a zh-CN.js under web/i18n). */
const chineseWords = (requests) => requests.filter((url) => /\/i18n\/.*zh-CN\.js(?:\?|$)/.test(new URL(url).pathname));

describe('zh-CN’s words load on demand', () => {
  it('a page in English (heatmap, heads, a computing figure) requests no zh-CN words', async () => {
    const body = `<attn-heatmap id="h" weights="[[0.7, 0.3], [0.4, 0.6]]"></attn-heatmap>
      <attn-heads id="m"><script type="application/json">${ATTENTIONS}</script></attn-heads>
      <attn-figure id="f" stages="weights" captions><script type="application/json">${DATA}</script></attn-figure>`;
    const { page, requests, problems } = await show('lang-en-only.html', body, ['#h', '#f']);
    await drawn(page, '#m');
    expect((await toolbarWords(page, '#h')).label).toBe('Export');
    expect(
      requests.some((url) => url.endsWith('/web/i18n/figures/en.js')),
      'English words are requested, so the URLs are seen',
    ).toBe(true);
    expect(chineseWords(requests)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('two zh-CN heatmaps load the figures’ words once, and not the stages’ (which only <attn-figure> draws)', async () => {
    const body = `<attn-heatmap id="a" lang="zh-CN" weights="[[1]]"></attn-heatmap><attn-heatmap id="b" lang="zh-CN" weights="[[1]]"></attn-heatmap>`;
    const { page, requests } = await show('lang-zh-on-demand.html', body, ['#a', '#b']);
    const titles = await page.evaluate(() => [...document.querySelector('#a').shadowRoot.querySelectorAll('.attn-axis-title')].map((n) => n.textContent));
    expect(titles).toEqual(['键', '查询']);
    const paths = chineseWords(requests).map((url) => new URL(url).pathname.replace(/^.*\/web\//, 'web/'));
    expect(paths.sort()).toEqual(['web/i18n/errors/zh-CN.js', 'web/i18n/figures/zh-CN.js', 'web/i18n/training/zh-CN.js']);
  });

  it('a zh-CN <attn-figure> written by standaloneHtml() carries the stages’ words and shows them offline; an English one carries none', async () => {
    const spec = (lang) => ({ element: 'attn-figure', attributes: { lang, stages: 'weights', captions: true }, data: JSON.parse(DATA) });
    const english = await standaloneHtml(spec('en'));
    const opened = await openOffline('saved-figure-zh.html', await standaloneHtml(spec('zh-CN')));
    try {
      await opened.page.waitForFunction(() => document.querySelector('attn-figure').shadowRoot.querySelector('.stage-caption'));
      const caption = await opened.page.evaluate(() => document.querySelector('attn-figure').shadowRoot.querySelector('.stage-caption').textContent);
      expect(caption).toMatch(/[\u4e00-\u9fff]/);
      expect(opened.problems).toEqual([]);
    } finally {
      await opened.context.close();
    }
    const archive = gunzipSync(Buffer.from(english.match(/id="attention-lab-files">([^<]*)</)[1], 'base64'));
    const index = JSON.parse(archive.subarray(0, archive.indexOf(10)).toString()).map(([path]) => path);
    expect(index.filter((path) => path.includes('zh-CN'))).toEqual([]);
  });
});

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

// An example with Chinese tokens, so token text is never taken for English left over.
const DATA = JSON.stringify({
  x: [
    [1, 0, 1],
    [0, 2, 0],
    [1, 1, 1],
  ],
  wq: [
    [1, 0],
    [0, 1],
    [1, 1],
  ],
  wk: [
    [0, 1],
    [1, 0],
    [1, 1],
  ],
  wv: [
    [1, 1],
    [0, 1],
    [1, 0],
  ],
  tokens: ['我', '爱', '猫'],
});
const ATTENTIONS = JSON.stringify({
  attention: Array.from({ length: 2 }, (_, l) =>
    Array.from({ length: 2 }, (_, h) => [
      [1, 0, 0],
      [0.5, 0.5, 0],
      [0.2, 0.3 + 0.1 * l, 0.5 - 0.1 * l - 0 * h],
    ]),
  ),
  rowLabels: ['我', '爱', '猫'],
});
// Scoring names are values of the API (scoring: 'scaled-dot'), written as given in any language.
const SYMBOLS = ['softmax', 'scaled', 'dot'];

/** Waits for a drawn figure in the element `selector` (an SVG stage or the model view). */
const drawn = (page, selector) => page.waitForFunction((s) => document.querySelector(s)?.shadowRoot?.querySelector('[data-stage]'), selector);

/** Every English word the element `selector` shows or says (englishInFigure in the page), `names` (an attribute's, a key's) aside. */
const englishOf = (page, selector, names = []) =>
  page.evaluate(
    ([s, check, kept]) => new Function(`return ${check}`)()(document.querySelector(s), kept),
    [selector, englishInFigure.toString(), [...SYMBOLS, ...names]],
  );

/** Points at the middle of every canvas of the element, so the readouts speak. */
const pointAtCanvases = (page, selector) =>
  page.evaluate((s) => {
    for (const canvas of document.querySelector(s).shadowRoot.querySelectorAll('canvas')) {
      const box = canvas.getBoundingClientRect();
      canvas.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 }));
    }
  }, selector);

describe('the figures inside a zh-CN element', () => {
  const FIGURES = {
    '<attn-heatmap>': `<attn-heatmap id="f" lang="zh-CN" weights="[[0.7, 0.3], [0.4, 0.6]]" masked="[[0, 1], [0, 0]]" row-labels="我 猫" col-labels="我 猫"></attn-heatmap>`,
    '<attn-heatmap> on a canvas': `<attn-heatmap id="f" lang="zh-CN" weights="${JSON.stringify(Array.from({ length: 130 }, () => Array(130).fill(1 / 130)))}"></attn-heatmap>`,
    '<attn-heads>': `<attn-heads id="f" lang="zh-CN"><script type="application/json">${ATTENTIONS}</script></attn-heads>`,
    '<attn-figure> with captions': `<attn-figure id="f" lang="zh-CN" captions editable><script type="application/json">${DATA}</script></attn-figure>`,
    '<attn-figure> with the backward pass': `<attn-figure id="f" lang="zh-CN" backward captions><script type="application/json">${DATA}</script></attn-figure>`,
    '<attn-figure view="heatmap">': `<attn-figure id="f" lang="zh-CN" view="heatmap" heads="2"><script type="application/json">${DATA}</script></attn-figure>`,
    '<attn-figure view="links">': `<attn-figure id="f" lang="zh-CN" view="links"><script type="application/json">${DATA}</script></attn-figure>`,
    '<attn-training> before it trains': '<attn-training id="f" lang="zh-CN"></attn-training>',
  };
  for (const [name, body] of Object.entries(FIGURES)) {
    it(`${name} shows and says no English word`, async () => {
      const { page, problems } = await show(`zh-${name.replace(/\W+/g, '-')}.html`, body);
      await drawn(page, '#f');
      await pointAtCanvases(page, '#f');
      expect(await englishOf(page, '#f')).toEqual([]);
      expect(problems).toEqual([]);
    });
  }

  it('<attn-figure> in zh-CN on an English page leaves the page’s stages in English', async () => {
    const body = `<attn-figure id="zh" lang="zh-CN" stages="weights" captions><script type="application/json">${DATA}</script></attn-figure>
      <attn-figure id="en" stages="weights" captions><script type="application/json">${DATA}</script></attn-figure>`;
    const { page } = await show('zh-beside-en.html', body);
    await drawn(page, '#zh');
    await drawn(page, '#en');
    const caption = (s) => page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelector('.stage-caption').textContent, s);
    expect(await caption('#zh')).toMatch(/[\u4e00-\u9fff]/);
    expect(await caption('#en')).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('says a wrong attribute in Chinese, naming the attribute', async () => {
    const body = '<attn-heads id="f" lang="zh-CN" heads="x y"><script type="application/json">[[[[1]]]]</script></attn-heads>';
    const { page } = await show('zh-error.html', body);
    await page.waitForFunction(() => document.querySelector('#f').shadowRoot.querySelector('.status.error'));
    const message = await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('.status').textContent);
    expect(message).toBe('<attn-heads> heads：应为下标，如 "0 2 5"，而给出的是 "x y"');
  });

  it('says a misspelled data key in Chinese, naming the key and the one it resembles', async () => {
    const body = '<attn-figure id="f" lang="zh-CN"><script type="application/json">{ "Wq": [[1, 0], [0, 1]] }</script></attn-figure>';
    const { page } = await show('zh-data-error.html', body);
    await page.waitForFunction(() => document.querySelector('#f').shadowRoot.querySelector('.status.error'));
    const message = await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('.status').textContent);
    expect(message).toMatch(/^<attn-figure> data 中有未知的键 'Wq'（是不是 'wq'\?）；已知的键：version, /);
  });

  it('says a head out of range in Chinese, naming head and the range', async () => {
    const { page } = await show(
      'zh-head-error.html',
      `<attn-figure id="f" lang="zh-CN" head="5"><script type="application/json">${DATA}</script></attn-figure>`,
    );
    await page.waitForFunction(() => document.querySelector('#f').shadowRoot.querySelector('.status.error'));
    const message = await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('.status').textContent);
    expect(message).toBe('<attn-figure> head 必须是 [0, H-1=0] 中的整数，而给出的是 5');
  });

  // The API's own refusals (a renamed name, a tensor of the wrong shape or type) keep their English
  // for developers in Node, and are said wholly in Chinese in a zh-CN figure.
  it.each([
    ['a renamed attribute', '<attn-heatmap id="f" lang="zh-CN" tokens="我 猫" weights="[[0.7, 0.3], [0.4, 0.6]]"></attn-heatmap>', 'tokens'],
    [
      'a renamed key',
      '<attn-heads id="f" lang="zh-CN"><script type="application/json">{ "attention": [[[[1]]]], "tokens": ["我"] }</script></attn-heads>',
      'tokens',
    ],
    [
      'weights of the wrong shape',
      '<attn-figure id="f" lang="zh-CN"><script type="application/json">{ "x": [[1, 0], [0, 1]], "wq": [[1, 0, 0]] }</script></attn-figure>',
      'wq',
    ],
    [
      'a weight that is not a number',
      '<attn-figure id="f" lang="zh-CN"><script type="application/json">{ "x": [[1, 0], [0, 1]], "wq": [[1, "a"], [0, 1]] }</script></attn-figure>',
      'wq',
    ],
    ['a ragged matrix', '<attn-heatmap id="f" lang="zh-CN" weights="[[0.7, 0.3], [1]]"></attn-heatmap>', 'weights'],
  ])('says %s wholly in Chinese, naming it', async (what, body, name) => {
    const { page } = await show(`zh-api-${what.replace(/\W+/g, '-')}.html`, body);
    await page.waitForFunction(() => document.querySelector('#f').shadowRoot.querySelector('.status.error'));
    const message = await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('.status').textContent);
    expect(message).toContain(name);
    expect(await englishOf(page, '#f', [name]), message).toEqual([]);
  });

  it('says a src file that cannot be loaded in Chinese, naming src and the file', async () => {
    const { page } = await show('zh-src-error.html', '<attn-heatmap id="f" lang="zh-CN" src="missing.npy"></attn-heatmap>');
    await page.waitForFunction(() => document.querySelector('#f').shadowRoot.querySelector('.status.error'));
    const message = await page.evaluate(() => document.querySelector('#f').shadowRoot.querySelector('.status').textContent);
    expect(message).toBe('<attn-heatmap> src：无法加载 missing.npy(HTTP 404)');
  });

  it('a saved HTML file of a zh-CN figure (lang from the page) opens in zh-CN, offline', async () => {
    const body = `<div lang="zh-CN"><attn-heatmap id="f" weights="[[0.7, 0.3], [0.4, 0.6]]" row-labels="我 猫" col-labels="我 猫"></attn-heatmap></div>`;
    const { page } = await show('zh-save.html', body, ['#f']);
    const saved = await savedHtml(page, '#f');
    expect(saved.text).toMatch(/^<!doctype html>\n<html lang="zh-CN">/);
    expect(saved.text, 'the note shown if the file cannot start').toMatch(/boot\([^)]*"此 attention-lab 图表无法启动："\);/);
    const opened = await openOffline('saved-zh.html', saved.text);
    try {
      const words = await opened.page.evaluate(() => ({
        page: document.documentElement.lang,
        element: document.querySelector('attn-heatmap').getAttribute('lang'),
        titles: [...document.querySelector('attn-heatmap').shadowRoot.querySelectorAll('.attn-axis-title')].map((n) => n.textContent),
        made: document.querySelector('.made').textContent,
      }));
      expect(words).toMatchObject({ page: 'zh-CN', element: 'zh-CN', titles: ['键', '查询'] });
      expect(words.made).toMatch(/^由 attention-lab 制作/);
      expect(
        await opened.page.evaluate(([check]) => new Function(`return ${check}`)()(document.body, ['attention', 'lab']), [englishInFigure.toString()]),
      ).toEqual([]);
      expect(opened.problems).toEqual([]);
    } finally {
      await opened.context.close();
    }
  });
});
