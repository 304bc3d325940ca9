// The explorer in Chinese: ?lang=zh-CN (or a Chinese browser) shows no English UI string outside
// the parts kept in Latin letters (tests/support/english.js: formulas, numbers, token text, names,
// and the areas another pass translates), <html lang> follows the language, the masthead's switch
// changes it in place, and the links the page hands out keep it.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';
import { englishOnPage, KEPT, NAMES } from '../support/english.js';
import { sharedPage } from '../support/browser.js';

// A small model's attentions (examples/induction), for the import dialog.
const EXAMPLE_FILE = fileURLToPath(new URL('../../examples/induction/attention.safetensors', import.meta.url));
// A .npy cut short: a file the import dialog cannot read.
const TRUNCATED_FILE = fileURLToPath(new URL('../io/fixtures/truncated.npy', import.meta.url));

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The English words left on the page (or in `root`, a selector), one line each: where, the text, the words. */
async function englishLeft(page, root = 'body', tokens = null) {
  tokens ??= await page.evaluate(() => [...window.attentionLab.store.get().tokens, ...(window.attentionLab.store.get().keyTokens ?? [])]);
  const found = await page.evaluate(englishOnPage, { kept: KEPT, names: [...NAMES], tokens, root });
  return found.map((f) => `${f.where}: ${f.text} [${f.words.join(' ')}]`);
}

describe('refusals in Chinese', () => {
  it("a file that cannot be read: the import dialog says why in Chinese, the file's name as written", async () => {
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN');
    await page.setInputFiles('[data-action="import"] input[type="file"]', TRUNCATED_FILE);
    await page.waitForSelector('[data-role="import-dialog"][open] [data-role="import-message"]:not([hidden])');
    expect(await page.locator('[data-role="import-message"]').textContent()).toBe(
      'truncated.npy：形状 [3, 4]、类型 float32 需要 48 字节的数据，而文件只有 45 字节。',
    );
    expect(await englishLeft(page, '[data-role="import-dialog"]', [])).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a lab configuration the model refuses (3 heads for width 32): the lab says why in Chinese', async () => {
    const { page, problems } = await site.open('?view=lab&lang=zh-CN');
    await page.waitForSelector('[data-role="status"][data-step="0"]', { timeout: 30_000 });
    await page.fill('[data-field="heads"]', '3');
    await page.locator('[data-field="heads"]').dispatchEvent('change');
    const error = page.locator('p.error-box[role="alert"]:not([hidden])');
    await error.waitFor();
    expect(await error.textContent()).toBe('训练已停止：宽度 dModel 必须是 头数 的倍数，而现在 宽度 dModel = 32，头数 = 3');
    expect(await englishLeft(page, 'p.error-box', [])).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('the explorer in Chinese', () => {
  // Each preset's page, as ?preset=P&lang=zh-CN opens it, is opened once for the checks that only
  // read it or hover it: the whole page with its figure menus open, then (menus closed again) the
  // explanation of one number, then every matrix's explanation in turn.
  const EXPLAINED = { 'seed-004': ['weights'], 'sliding-window': ['masked'], d2l: ['scores'], 'seed-002': ['q', 'output'] };
  const SWEPT = ['seed-004', 'sentence', 'd2l', 'alibi', 'rotary', 'decode'];
  const closeMenus = (page) => page.evaluate(() => document.querySelectorAll('details.figure-menu').forEach((menu) => (menu.open = false)));

  describe.each(['seed-004', 'seed-002', 'd2l', 'sentence', 'alibi', 'decode', 'rotary', 'sliding-window', 'random'])(
    'preset %s with ?lang=zh-CN',
    (preset) => {
      const opened = sharedPage(() => site.open(`?preset=${preset}&lang=zh-CN`));

      it('shows no English UI string and <html lang="zh-CN">, its figure menus open', async () => {
        const { page, problems } = opened();
        await settle(page);
        expect(await page.evaluate(() => document.documentElement.lang), `${preset}: <html lang>`).toBe('zh-CN');
        // Every figure menu open at once: their items are shown, and so checked.
        await page.evaluate(() => document.querySelectorAll('details.figure-menu').forEach((menu) => (menu.open = true)));
        expect(await englishLeft(page), `${preset}: English left on the page`).toEqual([]);
        // The formulas beside the matrices keep their symbols and lose their words ("Q given": Q 给定).
        expect((await page.locator('.stage-formula').allTextContents()).join(' '), `${preset}: the formulas`).not.toMatch(/\b(?:given|of|fill)\b/);
        expect(await page.locator('.intro-origin').textContent(), `${preset}: the intro's origin`).toMatch(/[\u4e00-\u9fff]/);
        expect(problems, preset).toEqual([]);
      });

      for (const stage of EXPLAINED[preset] ?? [])
        it(`the explanation of a ${stage} number is in Chinese`, async () => {
          const { page, problems } = opened();
          await closeMenus(page);
          // The last cell: in the sliding window's masked scores, key 1 is hidden from query 6.
          const cells = page.locator(`svg[data-stage="${stage}"] .cell`);
          await cells.nth(stage === 'masked' ? 30 : (await cells.count()) - 1).hover();
          await page.waitForSelector('.explain-card');
          expect(await page.locator('.explain-card .explain-heading').textContent(), `${preset}, ${stage}: the heading`).toMatch(/[\u4e00-\u9fff]/);
          expect(await englishLeft(page), `${preset}, ${stage}: English left on the page`).toEqual([]);
          expect(problems, `${preset}, ${stage}`).toEqual([]);
        });

      if (SWEPT.includes(preset))
        it('every explanation is in Chinese: forward, backward, positions and the layer output', async () => {
          const { page, problems } = opened();
          await closeMenus(page);
          // Every drawn matrix, marked so that each is hovered once (its last number).
          const stages = await page.evaluate(() =>
            [...document.querySelectorAll('.stage-figures svg[data-stage]')]
              .filter((svg) => svg.getClientRects().length && svg.querySelector('.cell'))
              .map((svg, i) => {
                svg.dataset.sweep = String(i);
                return [i, svg.dataset.stage];
              }),
          );
          expect(stages.length, `${preset}: matrices drawn`).toBeGreaterThan(8);
          const left = [];
          for (const [i, stage] of stages) {
            await page.locator(`svg[data-sweep="${i}"] .cell`).last().hover();
            await settle(page);
            const heading = await page.locator('.explain-card .explain-heading').textContent();
            // The page as a whole is checked once per preset above: here, what the hover changed.
            left.push(...(await englishLeft(page, '.explain-card')).map((line) => `${stage} (${heading}): ${line}`));
          }
          expect(left, `${preset}: English left in the explanations`).toEqual([]);
          expect(problems, preset).toEqual([]);
        });
    },
  );

  it.each(['heatmap', 'links'])('the %s gallery in Chinese, two scorings compared (d2l), a figure menu open', async (view) => {
    const { page, problems } = await site.open('?preset=d2l&lang=zh-CN');
    await page.evaluate((v) => window.attentionLab.store.update({ view: v }), view);
    await settle(page);
    expect(await page.locator('.gallery svg').count()).toBeGreaterThan(1);
    await page.locator('.gallery summary').first().click();
    expect(await englishLeft(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the lab in Chinese: its model view, score badges, charts and a head’s pipeline', async () => {
    const { page, problems } = await site.open('?view=lab&lang=zh-CN');
    await page.waitForSelector('[data-role="status"][data-step="0"]', { timeout: 30_000 });
    await page.click('[data-action="lab-step"]');
    await page.waitForSelector('[data-role="status"][data-step="1"]');
    await page.waitForSelector('.lab-score-table .lab-badge');
    expect(await englishLeft(page)).toEqual([]);
    await page.locator('[data-role="model-view"] canvas[data-layer="1"][data-head="0"]').click();
    await page.waitForSelector('[data-role="head-pipeline"] svg[data-stage="weights"]');
    await page.locator('[data-role="head-pipeline"] svg[data-stage="weights"] .cell').last().hover();
    await settle(page);
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

  it('the Generate panel in Chinese: its buttons, steps, cache figures and checks', async () => {
    const { page, problems } = await site.open('?preset=decode&lang=zh-CN');
    const panel = page.locator('.generate-card');
    for (let step = 0; step < 3; step += 1) await panel.getByRole('button', { name: '单步：送入下一个词元' }).click();
    await expect.poll(() => panel.locator('.generate-status').textContent()).toMatch(/^第 3 步（共 5 步）/);
    expect(await panel.locator('.generate-check').count()).toBe(3);
    expect(await englishLeft(page)).toEqual([]);
    // A state the cache cannot decode says why, in Chinese too.
    await page.evaluate(() => window.attentionLab.store.update((s) => ({ ...s, scoring: 'additive' })));
    await expect.poll(() => panel.locator('.generate-note').textContent()).toMatch(/点积/);
    expect(await englishLeft(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the Speed panel in Chinese, before and after a run (the Markdown report stays English, for sharing)', async () => {
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN');
    expect(await englishLeft(page)).toEqual([]);
    await page.evaluate(() => window.attentionLab.store.update((s) => ({ ...s, speed: { T: 32, d: 16, heads: 1 } })));
    await page.locator('.speed-card').getByRole('button', { name: '运行' }).click();
    await page.waitForFunction(() => document.querySelector('.speed-status').textContent.startsWith('完成'), null, { timeout: 45_000 });
    await page.locator('.speed-report summary').click();
    expect(await englishLeft(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the Train panel in Chinese, while it trains and after it stops', async () => {
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN');
    await page.getByRole('button', { name: '单步：一步 SGD' }).click();
    await expect.poll(() => page.locator('.train-status').textContent()).toMatch(/^第 1 步/);
    expect(await englishLeft(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the Embed dialog in Chinese offers Save as HTML first and says where the files must be hosted', async () => {
    const { page, problems } = await site.open('?preset=sentence&lang=zh-CN');
    await page.getByRole('button', { name: /嵌入/ }).first().click();
    const dialog = page.locator('dialog.embed-dialog');
    // The one-file path comes first, and has the focus.
    expect(await dialog.locator('.embed-option-title').first().textContent()).toMatch(/HTML/);
    expect(await page.evaluate(() => document.activeElement.textContent)).toBe('另存为 HTML');
    // The test server is this machine: the dialog says the snippet works only here.
    expect(await dialog.locator('.embed-local').textContent()).toMatch(/127\.0\.0\.1:\d+.*你自己的电脑/);
    expect(await englishLeft(page)).toEqual([]);
    await dialog.locator('input[value="iframe"]').check();
    expect(await dialog.locator('.embed-host').textContent()).toMatch(/iframe 的地址/);
    expect(await englishLeft(page)).toEqual([]);
    await page.keyboard.press('Escape');
    // From a figure's menu: that stage, named in Chinese.
    const card = page.locator('[data-card="weights"]');
    await card.locator('summary').first().click();
    await card
      .getByRole('menuitem', { name: /嵌入代码/ })
      .first()
      .click();
    expect(await dialog.locator('.embed-what').textContent()).toContain('注意力权重');
    expect(await englishLeft(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('Save as HTML in the Embed dialog saves one file of the example', async () => {
    const { page, problems } = await site.open('?preset=d2l&lang=zh-CN');
    await page.getByRole('button', { name: /嵌入/ }).first().click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('dialog.embed-dialog').getByRole('button', { name: '另存为 HTML' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^attention-lab-d2l.*\.html$/);
    expect(problems).toEqual([]);
  });

  it("check mode in Chinese: the tutorial's numbers typed, then checked, with 核对 as the catalog says", async () => {
    const { page, problems } = await site.open('?preset=seed-002&lang=zh-CN');
    const buttons = page.locator('.check-button');
    expect(await buttons.count()).toBeGreaterThan(3);
    expect(await buttons.first().textContent()).toBe('核对');
    expect(await englishLeft(page)).toEqual([]);
    for (let i = 0; i < (await buttons.count()); i += 1) await buttons.nth(i).click();
    await expect.poll(() => page.locator('[data-check-stage="q"] .check-summary').textContent()).toMatch(/笔误/);
    expect(await englishLeft(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('the import dialog and the model view in Chinese (the file’s own tensor names aside)', async () => {
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN');
    await page.setInputFiles('[data-action="import"] input[type="file"]', EXAMPLE_FILE);
    await page.waitForSelector('[data-role="import-dialog"][open]');
    expect(await englishLeft(page)).toEqual([]);
    await page.getByRole('button', { name: '应用' }).click();
    await page.waitForSelector('[data-view="heads"]');
    expect(await englishLeft(page)).toEqual([]);
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
    const tokens = await page.evaluate(() => window.attentionLab.store.get().tokens);
    await page.goto(src);
    await page.waitForFunction(() => document.querySelector('attn-figure')?.getAttribute('lang'));
    expect(await page.evaluate(() => [document.documentElement.lang, document.querySelector('attn-figure').getAttribute('lang')])).toEqual(['zh-CN', 'zh-CN']);
    // The embedded figure (in its shadow root), drawn, says no English word either.
    await page.waitForFunction(() => document.querySelector('attn-figure').shadowRoot?.querySelector('svg .cell'));
    expect(await englishLeft(page, 'body', tokens)).toEqual([]);
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
