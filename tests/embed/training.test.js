// <attn-training> (web/elements/attn-training.js, a first form): on a plain page with no bundler,
// it starts training when it comes into view, its loss falls, and its button pauses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPages } from '../support/pages.js';

let pages;
beforeAll(async () => {
  pages = await startPages();
});
afterAll(async () => {
  await pages?.close();
});

describe('<attn-training>', () => {
  it('trains once in view, the loss falls, and the button pauses it', async () => {
    await pages.write(
      'training.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
<attn-training task="induction" layers="2" heads="2" d-model="16" batch="32" learning-rate="0.01" max-steps="3000"></attn-training>
<script type="module" src="./web/elements/attn-training.js"></script></body></html>`,
    );
    const { page, problems } = await pages.open('training.html', { wait: false });
    const step = () => page.evaluate(() => document.querySelector('attn-training').state?.step ?? 0);
    await page.waitForFunction(() => (document.querySelector('attn-training').state?.step ?? 0) >= 500, null, { timeout: 60000 });
    const shadow = (selector) => page.evaluate((s) => Boolean(document.querySelector('attn-training').shadowRoot.querySelector(s)), selector);
    expect(await shadow('svg[data-role="loss-chart"]')).toBe(true);
    expect(await shadow('canvas[data-layer="1"][data-head="1"]')).toBe(true);
    await page.evaluate(() => document.querySelector('attn-training').shadowRoot.querySelector('[data-action="toggle"]').click());
    await page.waitForFunction(() => !document.querySelector('attn-training').running);
    const paused = await step();
    await new Promise((done) => setTimeout(done, 500));
    expect(await step()).toBe(paused);
    const losses = await page.evaluate(() => document.querySelector('attn-training').state.losses);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(losses.slice(-10))).toBeLessThan(0.8 * mean(losses.slice(0, 10)));
    expect(problems).toEqual([]);
  });
});
