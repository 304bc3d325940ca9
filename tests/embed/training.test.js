// <attn-training> (web/elements/attn-training.js) on a plain page with no bundler, in Chromium: it
// starts when it comes into view and its loss falls; its button pauses and resumes it, from the
// keyboard too; removed from the page its worker ends; its words in zh-CN; a bad attribute shows
// a message naming it and nothing trains; under reduced motion it shows the stored run and trains
// only when asked; axe-core finds nothing blocking; saved as HTML it trains offline from file://.
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, blocking } from '../support/axe.js';
import { openOffline } from '../support/offline.js';
import { elementsPage, startPages } from '../support/pages.js';

// The lab's small induction model (the element's defaults), a little faster to learn.
const SMALL = 'task="induction" layers="2" heads="2" d-model="16" batch="32" learning-rate="0.01" max-steps="3000"';
const KIB = 1024;

let pages;
beforeAll(async () => {
  pages = await startPages();
});
afterAll(async () => {
  await pages?.close();
});

/** Opens a page of `body` (elements loaded from the sources); options as pages.open's. */
async function open(name, body, options = {}) {
  await pages.write(name, elementsPage(body, { head: '<title>A post with a training figure</title>' }));
  return pages.open(name, options);
}

/** In the page: the first <attn-training>'s shadow root's `selector`, read by `read`. */
const shadow = (page, selector, read = (node) => node?.textContent ?? null) =>
  page.evaluate(
    ([s, r]) => new Function('node', `return (${r})(node)`)(document.querySelector('attn-training').shadowRoot.querySelector(s)),
    [selector, read.toString()],
  );
const step = (page) => page.evaluate(() => document.querySelector('attn-training').state?.step ?? 0);
const stepAtLeast = (page, n, timeout = 60_000) =>
  page.waitForFunction((k) => (document.querySelector('attn-training').state?.step ?? 0) >= k, n, { timeout, polling: 100 });
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('<attn-training> on a page', () => {
  it('waits out of view, trains once scrolled to, the loss falls, and its button pauses and resumes it', async () => {
    const { page, problems } = await open('training.html', `<div style="height:2400px">above the fold</div><attn-training ${SMALL}></attn-training>`);
    await page.waitForTimeout(1000);
    expect(await step(page), 'out of view, nothing trains').toBe(0);
    expect(page.workers(), 'out of view, no worker').toHaveLength(0);
    await page.evaluate(() => document.querySelector('attn-training').scrollIntoView());
    await stepAtLeast(page, 400);
    expect(page.workers(), 'one worker trains').toHaveLength(1);
    expect(await shadow(page, 'svg[data-role="loss-chart"]', (n) => Boolean(n))).toBe(true);
    expect(await shadow(page, 'canvas[data-layer="1"][data-head="1"]', (n) => Boolean(n))).toBe(true);
    expect(await shadow(page, 'table[data-role="scores"] tbody', (n) => n.rows.length)).toBe(4);

    expect(await shadow(page, '[data-action="toggle"]')).toBe('Pause');
    await page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-action="toggle"]').click());
    await page.waitForFunction(() => !document.querySelector('attn-training').running);
    const paused = await step(page);
    await page.waitForTimeout(600);
    expect(await step(page), 'paused, no step is taken').toBe(paused);
    expect(await shadow(page, '[data-action="toggle"]')).toBe('Resume');
    expect(await shadow(page, '[data-role="state"]')).toMatch(new RegExp(`^Paused · step ${paused} · loss \\d\\.\\d{3} · accuracy \\d\\.\\d{2}$`));

    // The training loss of the induction task starts near ln 26 = 3.26 and falls as the heads form.
    const losses = await page.evaluate(() => document.querySelector('attn-training').state.losses);
    const [first, last] = [mean(losses.slice(0, 20)), mean(losses.slice(-20))];
    expect(last, `mean loss of the first 20 steps ${first}, of the last 20 ${last}`).toBeLessThan(0.8 * first);

    await page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-action="toggle"]').click());
    await stepAtLeast(page, paused + 30);
    expect(await shadow(page, '[data-action="toggle"]')).toBe('Pause');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('ends its worker when it is removed from the page', async () => {
    const { page, problems } = await open('training-removed.html', `<attn-training ${SMALL}></attn-training>`);
    await stepAtLeast(page, 20);
    expect(page.workers()).toHaveLength(1);
    await page.evaluate(() => document.querySelector('attn-training').remove());
    await page.waitForFunction(() => true, null, { timeout: 1000 });
    await expect.poll(() => page.workers().length, { timeout: 10_000 }).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('pauses when scrolled out of view for 5 s, and resumes when back in view', async () => {
    const { page, problems } = await open('training-away.html', `<attn-training ${SMALL}></attn-training><div style="height:3000px">below</div>`);
    await stepAtLeast(page, 20);
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.waitForTimeout(2000);
    expect(await page.evaluate(() => document.querySelector('attn-training').running), 'away for 2 s, it still trains').toBe(true);
    await page.waitForFunction(() => !document.querySelector('attn-training').running, null, { timeout: 10_000 });
    const paused = await step(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await stepAtLeast(page, paused + 20);
    // Paused by the reader, it stays paused when scrolled away and back.
    await page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-action="toggle"]').click());
    await page.waitForFunction(() => !document.querySelector('attn-training').running);
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.waitForTimeout(300);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => document.querySelector('attn-training').running), "the reader's pause holds").toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('is operated from the keyboard: Tab reaches the button, Enter pauses, Space resumes', async () => {
    const { page, problems } = await open('training-keys.html', `<attn-training ${SMALL}></attn-training>`);
    await stepAtLeast(page, 20);
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.dataset.action ?? null);
    expect(await focused(), 'the first Tab lands on the Train/Pause button').toBe('toggle');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => !document.querySelector('attn-training').running);
    expect(await shadow(page, '[data-action="toggle"]', (n) => n.getAttribute('aria-pressed'))).toBe('false');
    const paused = await step(page);
    await page.keyboard.press('Space');
    await stepAtLeast(page, paused + 20);
    expect(await shadow(page, '[data-action="toggle"]', (n) => n.getAttribute('aria-pressed'))).toBe('true');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('speaks Chinese with lang="zh-CN"', async () => {
    const { page, problems } = await open('training-zh.html', `<attn-training lang="zh-CN" ${SMALL}></attn-training>`);
    await stepAtLeast(page, 20);
    await page.evaluate(() => document.querySelector('attn-training').pause());
    await page.waitForFunction(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-role="state"]').textContent.startsWith('已暂停'));
    expect(await shadow(page, '[data-role="state"]')).toMatch(/^已暂停 · 第 \d+ 步 · 损失 \d\.\d{3} · 准确率 \d\.\d{2}$/);
    expect(await shadow(page, '[data-action="toggle"]')).toBe('继续');
    expect(await shadow(page, 'svg[data-role="loss-chart"]')).toContain('训练损失');
    expect(await shadow(page, 'table[data-role="scores"] thead')).toBe('头前一词元得分归纳得分');
    expect(await shadow(page, 'table[data-role="scores"] tbody th')).toBe('第 0 层第 0 头');
    expect(await shadow(page, '[data-export="html"]')).toContain('单个文件');
    // Another lang redraws the same training in English, with no new model.
    const at = await step(page);
    await page.evaluate(() => document.querySelector('attn-training').setAttribute('lang', 'en'));
    await expect.poll(() => shadow(page, '[data-action="toggle"]')).toBe('Resume');
    expect(await shadow(page, '[data-role="state"]')).toMatch(new RegExp(`^Paused · step ${at} · `));
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('stops at max-steps, says it finished, and offers no more training', async () => {
    const { page, problems } = await open('training-done.html', '<attn-training max-steps="30"></attn-training>');
    await page.waitForFunction(() =>
      document.querySelector('attn-training').shadowRoot.querySelector('[data-role="state"]').textContent.startsWith('Finished'),
    );
    expect(await shadow(page, '[data-role="state"]')).toMatch(/^Finished · step 30 · loss \d\.\d{3} · accuracy \d\.\d{2}$/);
    expect(await shadow(page, '[data-action="toggle"]', (n) => n.disabled)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows a bad attribute as a message naming it and what it expects, and trains nothing', async () => {
    const { page, problems } = await open('training-bad.html', '<attn-training layers="many"></attn-training>');
    const status = () => shadow(page, '.status');
    await page.waitForFunction(() => document.querySelector('attn-training').shadowRoot.querySelector('.status').textContent);
    expect(await status()).toBe('<attn-training> layers: expected an integer from 1 to 4, got "many"');
    expect(await shadow(page, '.status', (n) => n.getAttribute('role'))).toBe('alert');
    const cases = [
      ['task', 'sorting', '<attn-training> task: expected one of induction, copy, reverse, sort, got "sorting"'],
      ['layers', '2.5', '<attn-training> layers: expected an integer from 1 to 4, got "2.5"'],
      ['learning-rate', '2', '<attn-training> learning-rate: expected a number from 0.00001 to 1, got "2"'],
      ['batch', '', '<attn-training> batch: expected an integer from 1 to 256, got ""'],
      ['d-model', '18', '<attn-training> d-model: expected a multiple of heads (4), got 18'],
    ];
    for (const [name, value, message] of cases) {
      await page.evaluate(
        ([n, v]) => {
          const element = document.querySelector('attn-training');
          for (const a of ['task', 'layers', 'learning-rate', 'batch', 'd-model', 'heads']) element.removeAttribute(a);
          if (n === 'd-model') element.setAttribute('heads', '4');
          element.setAttribute(n, v);
        },
        [name, value],
      );
      await expect.poll(status, { timeout: 5000 }).toBe(message);
    }
    await page.waitForTimeout(500);
    expect(await step(page), 'nothing trained').toBe(0);
    expect(page.workers(), 'no worker started').toHaveLength(0);
    expect(await shadow(page, '.training-controls', (n) => n.hidden)).toBe(true);
    // Mended, it trains.
    await page.evaluate(() => document.querySelector('attn-training').removeAttribute('d-model'));
    await stepAtLeast(page, 10);
    expect(await status()).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('<attn-training> under prefers-reduced-motion: reduce', () => {
  it('shows the stored run with a stepper, trains nothing until asked, then trains live', async () => {
    const { page, problems } = await open('training-reduced.html', `<attn-training ${SMALL}></attn-training>`, { reducedMotion: 'reduce' });
    await page.waitForFunction(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-role="stored-note"]'));
    await page.waitForTimeout(800);
    expect(await step(page), 'nothing trains on its own').toBe(0);
    expect(page.workers(), 'no worker').toHaveLength(0);
    expect(await shadow(page, '[data-role="stored-note"]')).toContain('a stored run of the default model (2 layers × 2 heads, d = 16, induction)');
    expect(await shadow(page, '[data-role="state"]')).toMatch(/^Snapshot · step 0 · loss/);
    // The stored run is a real one: its loss falls and an induction head forms in layer 1.
    const run = await page.evaluate(async () => (await fetch('./web/elements/training-run.json')).json());
    expect(mean(run.losses.slice(-20))).toBeLessThan(0.8 * mean(run.losses.slice(0, 20)));
    expect(run.crossings.some((c) => c.kind === 'induction' && c.layer === 1)).toBe(true);
    expect(run.about).toMatch(/tools\/model\/training-run\.mjs/);

    // The slider, from the keyboard: each arrow is one snapshot.
    await page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-role="snapshot"]').focus());
    for (const snapshot of run.snapshots.slice(1)) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => shadow(page, '[data-role="state"]')).toMatch(new RegExp(`^Snapshot · step ${snapshot.step} · loss ${snapshot.loss.toFixed(3)}`));
    }
    expect(await shadow(page, '[data-role="snapshot"]', (n) => n.getAttribute('aria-valuetext'))).toBe(`step ${run.snapshots.at(-1).step}`);
    expect(await shadow(page, '[data-role="crossings"]')).toContain('Layer 1 head 1 became an induction head at step');
    expect(blocking(await axeViolations(page))).toEqual([]);

    expect(await shadow(page, '[data-action="toggle"]')).toBe('Train live');
    await page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-action="toggle"]').click());
    await stepAtLeast(page, 20);
    expect(await shadow(page, '[data-role="stepper"]', (n) => Boolean(n))).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('<attn-training> checked by axe-core', () => {
  it('has no serious or critical violation while it trains', async () => {
    const { page, problems } = await open('training-axe.html', `<main><h1>A post</h1><attn-training ${SMALL}></attn-training></main>`);
    await stepAtLeast(page, 30);
    await page.evaluate(() => document.querySelector('attn-training').pause());
    expect(blocking(await axeViolations(page))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('<attn-training> saved as HTML', () => {
  it('trains offline from file:// with the wasm core inlined, and shows the stored run under reduced motion', async () => {
    const { page } = await open('training-save.html', `<attn-training ${SMALL}></attn-training>`);
    await page.waitForFunction(() => !document.querySelector('attn-training').shadowRoot.querySelector('[data-export="html"]').disabled);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-export="html"]').click()),
    ]);
    const chunks = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    await page.close();
    const bytes = Buffer.byteLength(text);
    console.log(`<attn-training> saved as HTML: ${(bytes / KIB).toFixed(1)} KiB`);
    expect(bytes).toBeLessThan(300 * KIB);

    const offline = await openOffline('training.html', text);
    await stepAtLeast(offline.page, 100);
    // On the page's thread the page still answers: Pause stops it long before max-steps (3000).
    await offline.page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-action="toggle"]').click());
    await offline.page.waitForFunction(() => !document.querySelector('attn-training').running);
    expect(await step(offline.page)).toBeLessThan(1500);
    const losses = await offline.page.evaluate(() => document.querySelector('attn-training').state.losses);
    expect(mean(losses.slice(-20))).toBeLessThan(mean(losses.slice(0, 20)));
    expect(offline.problems).toEqual([]);
    await offline.context.close();

    const reduced = await offline.context.browser().newContext({ reducedMotion: 'reduce' });
    const still = await reduced.newPage();
    const problems = [];
    still.on('pageerror', (e) => problems.push(e.message));
    await reduced.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    await still.goto(pathToFileURL(offline.path).href);
    await still.waitForFunction(() => document.querySelector('attn-training')?.shadowRoot?.querySelector('[data-role="stored-note"]'));
    expect(await still.evaluate(() => document.querySelector('attn-training').state)).toBe(null);
    expect(problems).toEqual([]);
    await reduced.close();
  }, 120_000);
});
