// Three newcomers, each from nothing to a first exact result in Chromium (issue 33):
//   a student, on the Chinese page, pastes the Illustrated-Self-Attention example and gets its exact
//     scores, weights and output, then opens the tutorial's own numbers in Check and is told its slip;
//   a blogger's page on another origin loads elements.js from the explorer's server (tools/serve.mjs,
//     what `npm start` runs) and shows a figure of given 2-D weights, and a misspelled key by name;
//   a researcher opens a BertViz attention file and sees the model view, layers as rows.
// What each gets is asserted; how long each step took is printed (not asserted: the machine is shared).
// Screenshots go to tests/artifacts/personas/ (look at them).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../web/i18n/index.js';
import { selfAttention } from '../reference/matrices.js';
import { SITE, VIEWPORTS, startSite } from '../support/site.js';
import { startPages } from '../support/pages.js';
import { settle, shadowStageValues, stageValues, worstDifference } from '../support/figures.js';
import { SEED_002 as EXAMPLE } from '../support/seed-002.js';
import { SEED_004 } from '../support/seed-004.js';

const SHOTS = fileURLToPath(new URL('../artifacts/personas/', import.meta.url));
const SERVE = fileURLToPath(new URL('../../tools/serve.mjs', import.meta.url));
const BERTVIZ = fileURLToPath(new URL('../../examples/induction/attention.json', import.meta.url));

// As a student copies them: the tutorial's LaTeX, a NumPy print, plain rows.
const PASTED = {
  x: 'X = \\begin{bmatrix}\n1 & 0 & 1 & 0 \\\\ 0 & 2 & 0 & 2 \\\\ 1 & 1 & 1 & 1\n\\end{bmatrix}',
  wq: '[[1. 0. 1.]\n [1. 0. 0.]\n [0. 1. 0.]\n [0. 1. 1.]]',
  wk: '0 1 1\n1 0 1\n0 1 0\n1 0 0',
  wv: '0 0 1\n1 1 0\n0 1 0\n1 0 1',
};
// float32 storage and a few dozen float32 operations on numbers below ~20.
const tolerance = (expected) => 2e-6 * Math.max(1, ...expected.flat(2).map(Math.abs));

/** A clock for one walkthrough: step(name) logs the ms since the last step and since the start. */
function stopwatch(who) {
  const start = performance.now();
  let last = start;
  const steps = [];
  return {
    step(name) {
      const now = performance.now();
      steps.push([name, Math.round(now - last)]);
      console.log(`[persona ${who}] ${name}: ${Math.round(now - last)} ms (${Math.round(now - start)} ms from nothing)`);
      last = now;
    },
    total: () => Math.round(last - start),
  };
}

beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

describe('the student', () => {
  let site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it("on the Chinese page, pastes the example's four matrices and gets the exact scores, weights and output; Check names the tutorial's slip", async () => {
    const clock = stopwatch('student');
    const { page, problems } = await site.open('?lang=zh-CN', { permissions: ['clipboard-read', 'clipboard-write'] });
    clock.step('open the zh-CN explorer');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: `${SHOTS}student-zh-CN-desktop.png` });
    const phone = await site.open('?lang=zh-CN', { viewport: VIEWPORTS.phone });
    await phone.page.evaluate(() => document.fonts.ready);
    await phone.page.screenshot({ path: `${SHOTS}student-zh-CN-phone.png` });
    clock.step('(screenshots, desktop and phone)');

    for (const [stage, text] of Object.entries(PASTED)) {
      await page.evaluate((copied) => navigator.clipboard.writeText(copied), text);
      await page.locator(`svg[data-stage="${stage}"] .cell[data-row="0"][data-col="0"]`).focus();
      await page.keyboard.press('Control+V');
      await settle(page);
      expect((await stageValues(page, stage))[0], `${stage} as pasted`).toEqual(EXAMPLE[stage]);
      if (stage === 'x') {
        await page.locator('[data-card="x"]').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}student-pasted-latex.png` });
      }
      clock.step(`paste ${stage} (${stage === 'x' ? 'LaTeX bmatrix' : stage === 'wq' ? 'NumPy print' : 'plain rows'})`);
    }
    // Every note under a paste was in Chinese.
    expect(await page.locator('.paste-notice').textContent()).toMatch(/[\u4e00-\u9fff]/);
    const exact = selfAttention(EXAMPLE);
    for (const stage of ['scores', 'weights', 'output']) {
      const shown = (await stageValues(page, stage))[0];
      const worst = worstDifference(shown, exact[stage]);
      expect(worst.diff, `${stage} at ${worst.at}: page ${worst.actual}, exact ${worst.expected}`).toBeLessThanOrEqual(tolerance(exact[stage]));
    }
    // By hand: q1 = x1 W^Q = (1, 1, 1); k1, k2, k3 = (0, 2, 1), (4, 0, 2), (2, 2, 2).
    expect((await stageValues(page, 'scores'))[0][0]).toEqual([3, 6, 6]);
    clock.step('read the exact scores, weights and output');

    // The tutorial's own numbers in Check: its preset in the masthead, by its Chinese name.
    await page.getByRole('radio', { name: t('zh-CN', 'preset.seed-002.title'), exact: true }).click();
    const q = page.locator('[data-check-stage="q"] .check-summary');
    await q.waitFor();
    const diagnosis = await q.textContent();
    expect(diagnosis).toContain('第 1 行第 2 列：X 的第 1 行乘以 W^Q 的第 2 列是 1，不是 0');
    expect(diagnosis).toContain('后面只因前面的数而偏离');
    clock.step("open the tutorial's numbers in Check and read the diagnosis");
    // The explanation of the last pasted cell closed (at 1280 px its sheet covers the card's foot).
    if (await page.locator('.explain-close').count()) await page.locator('.explain-close').click();
    await page.locator('[data-card="q"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}student-check-seed-002.png` });
    console.log(`[persona student] first exact result in ${clock.total()} ms`);
    expect([...problems, ...phone.problems]).toEqual([]);
  });
});

describe('the blogger', () => {
  let server;
  let explorer;
  let blog;
  beforeAll(async () => {
    // What `npm start` runs: the built site on its own port.
    server = spawn(process.execPath, [SERVE, SITE], { stdio: ['ignore', 'pipe', 'inherit'] });
    explorer = await new Promise((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        const url = /https?:\/\/\S+\//.exec(String(chunk))?.[0];
        if (url) resolve(url);
      });
      server.on('exit', (code) => reject(new Error(`tools/serve.mjs exited with ${code}`)));
    });
    blog = await startPages(); // another server, another port: another origin
  });
  afterAll(async () => {
    await blog?.close();
    server?.kill();
  });

  it("a post on another origin loads elements.js from the explorer's server: given 2-D weights give scores 7, 2, 11; a misspelled key is named", async () => {
    const clock = stopwatch('blogger');
    const data = { ...SEED_004, tokens: ['I', 'like', 'tea'] };
    expect(new URL(explorer).origin).not.toBe(new URL(blog.url).origin);
    await blog.write(
      'post.html',
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>My post about attention</title>
<script type="module" src="${explorer}elements.js"></script></head>
<body><main><h1>Attention by hand</h1>
<p>The scores of "I like tea", computed live:</p>
<attn-figure id="mine" stages="scores weights"><script type="application/json">${JSON.stringify(data)}</script></attn-figure>
<p>And with a typo in a key:</p>
<attn-figure id="typo" stages="scores"><script type="application/json">${JSON.stringify({ ...data, Wq: data.wq })}</script></attn-figure>
</main></body></html>`,
    );
    clock.step('write the post');
    const { page, problems, requests } = await blog.open('post.html', { wait: false });
    await page.waitForFunction(() => document.querySelector('#mine')?.shadowRoot?.querySelector('svg[data-stage="scores"]'));
    clock.step('open the post: the figure drawn');
    expect((await shadowStageValues(page, '#mine', 'scores'))[0]).toEqual([
      [7, 2, 11],
      [3, 1, 4],
      [6, 1, 13],
    ]);
    const error = await page
      .waitForFunction(() => document.querySelector('#typo').shadowRoot.querySelector('.status.error')?.textContent)
      .then((h) => h.jsonValue());
    expect(error).toMatch(/unknown key 'Wq' \(did you mean 'wq'\?\)/);
    expect(await page.locator('#mine .toolbar').isVisible(), "the drawn figure's Export menu").toBe(true);
    expect(await page.locator('#typo .toolbar').isVisible(), 'an Export menu with nothing to export').toBe(false);
    clock.step("read the scores and the typo's message");
    // elements.js and the core came from the explorer's origin.
    expect(requests.some((url) => url.startsWith(explorer) && url.endsWith('.wasm'))).toBe(true);
    await page.screenshot({ path: `${SHOTS}blogger-cross-origin.png`, fullPage: true });
    console.log(`[persona blogger] first exact result in ${clock.total()} ms`);
    expect(problems).toEqual([]);
  });
});

describe('the researcher', () => {
  let site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('opens a BertViz attention file in the import dialog and sees the model view, layers as rows and heads as columns', async () => {
    const clock = stopwatch('researcher');
    const { page, problems } = await site.open('');
    clock.step('open the explorer');
    await page.setInputFiles('[data-action="import"] input[type="file"]', BERTVIZ);
    await page.waitForSelector('[data-role="import-dialog"][open]');
    clock.step('choose attention.json (BertViz)');
    expect(await page.$eval('input[name="import-role"]:checked', (i) => i.value)).toBe('weights');
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer][data-head]');
    clock.step('apply: the model view drawn');
    const maps = await page.$$eval('[data-view="heads"] canvas[data-layer][data-head]', (canvases) =>
      canvases
        .filter((c) => c.closest('[data-view="heads"]') && c.getBoundingClientRect().width > 0)
        .map((c) => ({
          layer: Number(c.dataset.layer),
          head: Number(c.dataset.head),
          top: Math.round(c.getBoundingClientRect().top),
          left: Math.round(c.getBoundingClientRect().left),
        })),
    );
    const at = (layer, head) => maps.find((m) => m.layer === layer && m.head === head);
    // Layer 0's heads side by side in one row; layer 1 below it; counted from 0.
    expect(at(0, 0).top).toBe(at(0, 1).top);
    expect(at(0, 1).left).toBeGreaterThan(at(0, 0).left);
    expect(at(1, 0).top).toBeGreaterThan(at(0, 0).top);
    expect(at(1, 0).left).toBe(at(0, 0).left);
    expect(await page.locator('.intro-lede').isVisible(), "the example's headline makes way").toBe(false);
    expect(await page.locator('.intro-origin').isVisible(), 'and where the example comes from').toBe(false);
    expect(await page.locator('svg[data-stage="weights"]').first().isVisible(), "the example's pipeline makes way").toBe(false);
    await page.screenshot({ path: `${SHOTS}researcher-model-view.png` });
    console.log(`[persona researcher] first result in ${clock.total()} ms`);
    expect(problems).toEqual([]);
  });
});
