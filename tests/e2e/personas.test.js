// Three newcomers, each from nothing to a first exact result in Chromium (issue 33):
//   a student, on the Chinese page, pastes the Illustrated-Self-Attention example and gets its exact
//     scores, weights and output, then opens the tutorial's own numbers in Check and is told its slip;
//   a blogger's page on another origin loads elements.js from the explorer's server (tools/serve.mjs,
//     what `npm start` runs) and shows a figure of given 2-D weights, and a misspelled key by name;
//     with no hosting, Save as HTML gives one file that shows the same scores from file://;
//   a researcher opens a BertViz attention file and sees the model view, layers as rows; and from the
//     command line draws one head of a safetensors file with its exact values.
// What each gets is asserted; how long each step took is printed (not asserted: the machine is shared).
// Screenshots go to tests/artifacts/personas/ (look at them).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../web/i18n/index.js';
import { selfAttention } from '../reference/matrices.js';
import { SITE, VIEWPORTS, startSite } from '../support/site.js';
import { startPages } from '../support/pages.js';
import { openOffline } from '../support/offline.js';
import { INDUCTION, induction } from '../cli/expected.js';
import { runCli } from '../cli/run.js';
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

/**
 * A clock for one walkthrough. step(name, actions) logs the step's user actions (clicks, key
 * presses, pastes, a typed URL) and its ms, with the totals so far; aside(fn) runs what is not the
 * persona's (screenshots) off the clock; result(what) logs the totals at the first exact result.
 */
function stopwatch(who) {
  const start = performance.now();
  let last = start;
  let offClock = 0; // ms spent aside, in all
  let offClockInStep = 0;
  let actions = 0;
  const sinceStart = () => Math.round(last - start - offClock);
  return {
    step(name, count) {
      const now = performance.now();
      const ms = Math.round(now - last - offClockInStep);
      actions += count;
      last = now;
      offClockInStep = 0;
      console.log(`[persona ${who}] ${name}: ${count} actions, ${ms} ms (${actions} actions, ${sinceStart()} ms from nothing)`);
    },
    async aside(fn) {
      const before = performance.now();
      await fn();
      const ms = performance.now() - before;
      offClock += ms;
      offClockInStep += ms;
    },
    result(what) {
      console.log(`[persona ${who}] first exact result (${what}): ${actions} actions, ${sinceStart()} ms from nothing`);
    },
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
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    clock.step('open the zh-CN explorer (type its address)', 1);
    const others = [];
    await clock.aside(async () => {
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `${SHOTS}student-zh-CN-desktop.png` });
      // The same first screen as a student on a dark desktop and on a 390 px phone, light and dark.
      for (const [name, viewport, colorScheme] of [
        ['desktop-dark', VIEWPORTS.desktop, 'dark'],
        ['phone', VIEWPORTS.phone, 'light'],
        ['phone-dark', VIEWPORTS.phone, 'dark'],
      ]) {
        const other = await site.open('?lang=zh-CN', { viewport, colorScheme });
        await other.page.evaluate(() => document.fonts.ready);
        await other.page.screenshot({ path: `${SHOTS}student-zh-CN-${name}.png` });
        others.push(other);
      }
    });

    // Each matrix: copy it from the tutorial, click its first cell, Ctrl+V.
    for (const [stage, text] of Object.entries(PASTED)) {
      await page.evaluate((copied) => navigator.clipboard.writeText(copied), text);
      await page.locator(`svg[data-stage="${stage}"] .cell[data-row="0"][data-col="0"]`).focus();
      await page.keyboard.press('Control+V');
      await settle(page);
      expect((await stageValues(page, stage))[0], `${stage} as pasted`).toEqual(EXAMPLE[stage]);
      if (stage === 'x') {
        await clock.aside(async () => {
          await page.locator('[data-card="x"]').scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}student-pasted-latex.png` });
        });
      }
      clock.step(`paste ${stage} (${stage === 'x' ? 'LaTeX bmatrix' : stage === 'wq' ? 'NumPy print' : 'plain rows'})`, 3);
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
    clock.step('read the exact scores, weights and output', 0);
    clock.result('the example by pasting');

    // The tutorial's own numbers in Check: its preset in the masthead, by its Chinese name.
    await page.getByRole('radio', { name: t('zh-CN', 'preset.seed-002.title'), exact: true }).click();
    const q = page.locator('[data-check-stage="q"] .check-summary');
    await q.waitFor();
    const diagnosis = await q.textContent();
    expect(diagnosis).toContain('第 1 行第 2 列：X 的第 1 行乘以 W^Q 的第 2 列是 1，不是 0');
    expect(diagnosis).toContain('后面只因前面的数而偏离');
    clock.step("open the tutorial's numbers in Check (its preset) and read the diagnosis", 1);
    await clock.aside(async () => {
      // The explanation of the last pasted cell closed (at 1280 px its sheet covers the card's foot).
      if (await page.locator('.explain-close').count()) await page.locator('.explain-close').click();
      await page.locator('[data-card="q"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}student-check-seed-002.png` });
    });
    expect([...problems, ...others.flatMap((other) => other.problems)]).toEqual([]);
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
    clock.step("paste the guide's script tag and a figure of their data into the post, save it", 2);
    const { page, problems, requests } = await blog.open('post.html', { wait: false });
    await page.waitForFunction(() => document.querySelector('#mine')?.shadowRoot?.querySelector('svg[data-stage="scores"]'));
    clock.step('open the post: the figure drawn', 1);
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
    clock.step("read the scores and the typo's message", 0);
    clock.result('scores 7, 2, 11 on another origin');
    // elements.js and the core came from the explorer's origin.
    expect(requests.some((url) => url.startsWith(explorer) && url.endsWith('.wasm'))).toBe(true);
    await page.screenshot({ path: `${SHOTS}blogger-cross-origin.png`, fullPage: true });
    expect(problems).toEqual([]);
  });
});

describe('the blogger with no hosting', () => {
  let site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it("saves the explorer's example as one HTML file that opens from file:// with scores 7, 2, 11", async () => {
    const clock = stopwatch('blogger, Save as HTML');
    const { page, problems } = await site.open('');
    clock.step('open the explorer', 1);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByRole('button', { name: 'Save as HTML' }).click()]);
    const text = await readFile(await download.path(), 'utf8');
    clock.step('Save as HTML', 1);
    const saved = await openOffline(download.suggestedFilename(), text);
    expect((await shadowStageValues(saved.page, 'attn-figure', 'scores'))[0]).toEqual([
      [7, 2, 11],
      [3, 1, 4],
      [6, 1, 13],
    ]);
    clock.step('open the saved file from file://', 1);
    clock.result(`scores 7, 2, 11 offline, one file of ${Math.round(text.length / 1024)} KiB`);
    await saved.page.screenshot({ path: `${SHOTS}blogger-saved-html.png` });
    expect([...problems, ...saved.problems]).toEqual([]);
    await saved.context.close();
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
    clock.step('open the explorer', 1);
    await page.setInputFiles('[data-action="import"] input[type="file"]', BERTVIZ);
    await page.waitForSelector('[data-role="import-dialog"][open]');
    clock.step('Open, choose attention.json (BertViz)', 2);
    expect(await page.$eval('input[name="import-role"]:checked', (i) => i.value)).toBe('weights');
    await page.click('[data-action="apply-import"]');
    await page.waitForSelector('[data-view="heads"]:not([hidden]) canvas[data-layer][data-head]');
    clock.step('Apply: the model view drawn', 1);
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
    clock.result('every layer and head of the file');
    await page.screenshot({ path: `${SHOTS}researcher-model-view.png` });
    expect(problems).toEqual([]);
  });

  it('from the command line: info, then an SVG heatmap of layer 1, head 2 holding the exact float32 values', async () => {
    const clock = stopwatch('researcher, CLI');
    const out = join(await mkdtemp(join(tmpdir(), 'attnlab-persona-')), 'head.svg');
    const info = await runCli(['info', INDUCTION]);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toContain('tokens (24, positions 0 to 23)');
    clock.step(`node bin/attention-lab.mjs info ${INDUCTION}`, 1);
    const figure = await runCli(['figure', INDUCTION, '--index', '1,2', '-o', out]);
    expect(figure.code, figure.stderr).toBe(0);
    const { data, shape } = induction();
    const T = shape[2];
    const head = data.subarray((1 * shape[1] + 2) * T * T, (1 * shape[1] + 3) * T * T);
    const shown = [...(await readFile(out, 'utf8')).matchAll(/data-value="([^"]*)"/g)].map((m) => m[1]);
    expect(shown).toEqual([...head].map(String));
    clock.step(`node bin/attention-lab.mjs figure ${INDUCTION} --index 1,2 -o head.svg`, 1);
    clock.result(`attention[1, 2], ${T * T} exact values`);
    await rm(dirname(out), { recursive: true, force: true });
  });
});
