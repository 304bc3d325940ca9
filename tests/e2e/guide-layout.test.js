// The embedding guide where a newcomer saw it fail: on a phone (390 px) the attribute tables keep
// their values and d2l's ten keys can be reached with the keyboard; every code block has a Copy
// button, reachable from the keyboard, named, and saying "Copied" in the page's language. In
// Chinese (?lang=zh-CN, or the header's switch) no English prose is left outside code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE, VIEWPORTS } from '../support/site.js';
import { drawAllFigures, startPages } from '../support/pages.js';
import { settle } from '../support/figures.js';
import { englishOnPage, KEPT, NAMES } from '../support/english.js';
import { sharedPage } from '../support/browser.js';

let pages;
beforeAll(async () => {
  pages = await startPages({ links: { site: SITE } });
});
afterAll(async () => {
  await pages?.close();
});

describe('the guide', () => {
  // One guide page at 390 px for the three that read it: the table as the page opens, then with
  // every figure drawn, then the keyboard in one of them.
  const phoneGuide = sharedPage(() => pages.open('site/guide.html', { wait: false, viewport: VIEWPORTS.phone }));

  it("shows every attribute's values at 390 px, inside the page", async () => {
    const { page, problems } = phoneGuide();
    const hidden = await page.$$eval('.guide-table tbody tr', (rows) =>
      rows
        .filter((row) => {
          const values = row.children[1].getBoundingClientRect();
          return values.width === 0 || values.height === 0 || values.right > document.documentElement.clientWidth;
        })
        .map((row) => row.children[0].textContent),
    );
    expect(await page.locator('.guide-table tbody tr').count()).toBeGreaterThan(20);
    expect(hidden, 'attributes whose values are hidden or off the page').toEqual([]);
    const widest = await page.$$eval('.guide-table', (tables) => Math.max(...tables.map((t) => t.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(problems).toEqual([]);
  });

  it('fits 390 px with every figure drawn (the 24-key heatmap of a file scales to its frame)', async () => {
    const { page, problems } = phoneGuide();
    await drawAllFigures(page);
    await page.waitForFunction(() => document.querySelector('attn-heatmap[src]')?.shadowRoot.querySelector('svg.attn-heatmap'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    expect(problems).toEqual([]);
  });

  it("brings d2l's tenth key wholly into view when the arrow keys reach it at 390 px", async () => {
    const { page, problems } = phoneGuide();
    await drawAllFigures(page);
    for (const figure of await page.locator('attn-figure[preset="d2l"][stages="masked weights output"]').all()) {
      await figure.evaluate((f) => f.shadowRoot.querySelector('svg[data-stage="masked"] .cell[tabindex="0"]').focus());
      for (let k = 0; k < 9; k++) await page.keyboard.press('ArrowRight');
      await settle(page);
      const seen = await figure.evaluate((f) => {
        const cell = f.shadowRoot.activeElement;
        const cellBox = cell.getBoundingClientRect();
        const box = cell.closest('.figure-scroll').getBoundingClientRect();
        return { label: cell.getAttribute('aria-label'), cell: [cellBox.left, cellBox.right], box: [box.left, box.right] };
      });
      expect(seen.label).toMatch(/column 10 \(k10\)/);
      expect(seen.cell[0], `k10 at ${seen.cell} in a box at ${seen.box}`).toBeGreaterThanOrEqual(seen.box[0]);
      expect(seen.cell[1], `k10 at ${seen.cell} in a box at ${seen.box}`).toBeLessThanOrEqual(seen.box[1]);
    }
    expect(problems).toEqual([]);
  });

  it.each([
    ['en', 'Copy', 'Copy the code: ', 'Copied'],
    ['zh-CN', '复制', '复制代码：', '已复制'],
  ])('gives every code block a Copy button (%s): after the code in the tab order, named, copying the code and saying so', async (lang, word, name, said) => {
    const { page, problems } = await pages.open(`site/guide.html?lang=${lang}`, { wait: false, permissions: ['clipboard-read', 'clipboard-write'] });
    const blocks = await page.locator('pre.guide-code').count();
    expect(blocks).toBeGreaterThan(20);
    expect(await page.locator('.guide-copy').count()).toBe(blocks);
    const labels = await page.$$eval('.guide-copy', (buttons) => buttons.map((b) => [b.textContent, b.getAttribute('aria-label')]));
    for (const [text, label] of labels) {
      expect(text).toBe(word);
      expect(label.startsWith(name), label).toBe(true);
    }
    // From the third code block, Tab reaches its button; Enter copies that block.
    const pre = page.locator('pre.guide-code').nth(2);
    await pre.focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement.className);
    expect(focused).toBe('guide-copy');
    await page.keyboard.press('Enter');
    await page.waitForFunction((w) => document.querySelector('[role="status"]')?.textContent === w, said);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await pre.textContent());
    expect(problems).toEqual([]);
  });
});

// Names written in Latin letters in the Chinese guide too: the elements, tools, formats and authors
// it cites (code, the switch's own "English" and quoted titles are kept by englishOnPage).
const GUIDE_NAMES = [
  ...NAMES,
  ...'attn-figure attn-heatmap attn-heads attn-training Vite Jupyter Python NumPy LaTeX Markdown TSV CDN DOM CSS BertViz KaTeX Olsson Elhage'.split(' '),
];

// The token text of the guide's examples (features/guide/content.js, the presets d2l and sentence
// it draws), shown as typed in any language.
const GUIDE_TOKENS = ['the', 'cat', 'sat', 'on', 'mat', 'like', 'tea', 'query'];

/** The English words left on the guide (its figures' shadow roots too), one line each: where, the text, the words. */
async function englishLeft(page) {
  const found = await page.evaluate(englishOnPage, { kept: KEPT, names: GUIDE_NAMES, tokens: GUIDE_TOKENS });
  return found.map((f) => `${f.where}: ${f.text} [${f.words.join(' ')}]`);
}

/** Prose and headings with letters outside code and element names but no Chinese character. */
const untranslated = (page) =>
  page.$$eval('.guide h1, .guide h2, .guide h3, .guide-lede, .guide-prose, .guide-post p, .guide-table td:nth-child(3)', (nodes) =>
    nodes
      .map((node) => {
        const copy = node.cloneNode(true);
        for (const code of copy.querySelectorAll('code, kbd, [lang="en"]')) code.remove();
        return copy.textContent.replace(/<attn-[\w-]+>/g, '').trim();
      })
      .filter((text) => /[A-Za-z]{3}/.test(text) && !/[\u4e00-\u9fff]/.test(text))
      .map((text) => text.slice(0, 80)),
  );

describe('the guide in Chinese', () => {
  it('?lang=zh-CN: every paragraph and heading in Chinese, no English word outside code, the figures in zh-CN', async () => {
    const { page, problems } = await pages.open('site/guide.html?lang=zh-CN', { wait: false });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    expect(await page.title()).toMatch(/[\u4e00-\u9fff]/);
    expect(await page.locator('.guide-prose').count()).toBeGreaterThan(15);
    expect(await untranslated(page), 'prose or headings with no Chinese').toEqual([]);
    await drawAllFigures(page); // the figures' words are checked too, drawn
    expect(await englishLeft(page), 'English words outside code').toEqual([]);
    const langs = await page.$$eval('.guide-live, .guide-post', (blocks) =>
      blocks.flatMap((b) => [...b.querySelectorAll('attn-figure, attn-heatmap, attn-heads, attn-training')].map((el) => `${el.localName} ${el.lang}`)),
    );
    expect(langs.length).toBeGreaterThan(15);
    expect(langs.filter((l) => !l.endsWith(' zh-CN'))).toEqual([]);
    expect(await page.locator('#induction attn-training[task="induction"]').count()).toBe(1);
    expect(await page.locator('#induction a[href*="transformer-circuits.pub"]').count()).toBe(2);
    // The iframe example's embed.html speaks Chinese too: <html lang>, its title, its figure.
    await page.locator('#iframe iframe').scrollIntoViewIfNeeded(); // loading="lazy"
    const frame = await (await page.locator('#iframe iframe').elementHandle()).contentFrame();
    await frame.waitForFunction(() => document.getElementById('figure')?.getAttribute('lang'));
    const embed = await frame.evaluate(() => [document.documentElement.lang, document.title, document.getElementById('figure').getAttribute('lang')]);
    expect(embed).toEqual(['zh-CN', expect.stringMatching(/[\u4e00-\u9fff]/), 'zh-CN']);
    expect(problems).toEqual([]);
  });

  it('the switch in the header opens the guide in the other language, at the same place, the focus on the switch', async () => {
    const { page, problems } = await pages.open('site/guide.html?lang=en#induction', { wait: false });
    expect(await page.locator('#induction-title').textContent()).toBe('Watch an induction head form');
    await page.getByRole('radiogroup', { name: 'Language' }).getByRole('radio', { name: '中文' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    expect(await page.locator('#induction-title').textContent()).toBe('观看归纳头的形成');
    const url = new URL(page.url());
    expect([url.searchParams.get('lang'), url.hash]).toEqual(['zh-CN', '#induction']);
    await page.waitForFunction(() => document.activeElement?.textContent === '中文');
    expect(await page.locator('.guide-brand').getAttribute('href')).toBe('./index.html?lang=zh-CN');
    await page.getByRole('radiogroup', { name: '语言' }).getByRole('radio', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(await page.locator('h1').textContent()).toBe('Embedding attention-lab figures');
    expect(problems).toEqual([]);
  });
});
