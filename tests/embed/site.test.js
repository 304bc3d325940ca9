// The embedding parts of the built site (dist/site, `npm run build:site`) in real Chromium: the
// explorer's Embed dialog, whose snippets (custom element and iframe) reproduce the explorer's
// numbers on another page; embed.html sized to its figure through postMessage; the guide with
// every live example and the sample post; and pipeline() drawing the explorer's very matrices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE } from '../support/site.js';
import { drawAllFigures, rendered, startPages } from '../support/pages.js';
import { allValues, shadowStageValues } from '../support/figures.js';
import { startServer } from '../../tools/static-server.mjs';

// One origin for the built site (site/, a link to dist/site, never written to) and the test's own
// pages, which load its elements.js and embed.html as a blog post would, and the raw web/.
let pages;
beforeAll(async () => {
  pages = await startPages({ links: { site: SITE } });
});
afterAll(async () => {
  await pages?.close();
});

/** The explorer at `query`, once its weights are drawn. */
async function explorer(query) {
  const opened = await pages.open(`site/index.html${query}`, { wait: false });
  await opened.page.waitForFunction(() => window.attentionLab && document.querySelector('svg[data-stage="weights"]'));
  return opened;
}

/** The weights (first head, first run) the explorer shows, as (B, Tq, Tk). */
const explorerWeights = (page) =>
  page.evaluate(() => {
    const out = [];
    for (const cell of document.querySelector('svg[data-stage="weights"][data-run="0"]').querySelectorAll('[data-value]')) {
      ((out[Number(cell.dataset.batch)] ??= [])[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.dataset.value);
    }
    return out;
  });

/** The snippet the Embed dialog shows for `kind` ('element' or 'iframe'). */
async function embedSnippet(page, kind) {
  if (!(await page.locator('dialog.embed-dialog').evaluate((d) => d.open))) await page.getByRole('button', { name: /Embed/ }).first().click();
  await page.locator(`input[name="embed-kind"][value="${kind}"]`).check();
  return page.locator('textarea.embed-snippet').inputValue();
}

describe('embedding, from the built site', () => {
  it("the Embed dialog's custom-element snippet shows the explorer's exact weights on another page", async () => {
    const { page, problems } = await explorer('?preset=seed-004');
    await page.evaluate(() => window.attentionLab.store.update({ causal: 'bottom-right', temperature: 2 })); // not a plain preset any more
    await page.waitForFunction(() => document.querySelector('svg[data-stage="weights"] [data-row="0"][data-col="1"]').dataset.value === '0');
    const expected = await explorerWeights(page);
    const snippet = await embedSnippet(page, 'element');
    expect(snippet).toMatch(
      /^<script type="module" src="http:\/\/127\.0\.0\.1:\d+\/site\/elements\.js"><\/script>\n<attn-figure>\n {2}<script type="application\/json">\{/,
    );
    await pages.write(
      'from-element-snippet.html',
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${snippet}</body></html>`,
    );
    const copy = await pages.open('from-element-snippet.html', { wait: false });
    await rendered(copy.page, 'attn-figure', 'weights');
    expect(await shadowStageValues(copy.page, 'attn-figure', 'weights')).toEqual(expected);
    expect([...problems, ...copy.problems]).toEqual([]);
  });

  it("a plain preset gives the short snippet, and a figure's menu gives the snippet of that stage", async () => {
    const { page, problems } = await explorer('?preset=d2l');
    expect(await embedSnippet(page, 'element')).toMatch(/<attn-figure preset="d2l"><\/attn-figure>/);
    await page.keyboard.press('Escape');
    const card = page.locator('[data-card="masked"]');
    await card.locator('summary', { hasText: 'Export' }).click();
    await card
      .getByRole('menuitem', { name: /Embed code/ })
      .first()
      .click();
    expect(await page.locator('textarea.embed-snippet').inputValue()).toMatch(/<attn-figure preset="d2l" stages="masked"><\/attn-figure>/);
    expect(problems).toEqual([]);
  });

  it("the iframe snippet shows the same weights, and the iframe takes its figure's height", async () => {
    const { page, problems } = await explorer('?preset=sentence');
    await page.evaluate(() => window.attentionLab.store.update({ causal: 'none' }));
    await page.waitForFunction(() => document.querySelector('svg[data-stage="weights"] [data-row="0"][data-col="1"]').dataset.value !== '0');
    const expected = await explorerWeights(page);
    const snippet = await embedSnippet(page, 'iframe');
    expect(snippet).toMatch(/<iframe src="http:\/\/127\.0\.0\.1:\d+\/site\/embed\.html#s=[\w-]+" /);
    await pages.write(
      'from-iframe-snippet.html',
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body><p>Before.</p>${snippet}<p>After.</p></body></html>`,
    );
    const host = await pages.open('from-iframe-snippet.html', { wait: false });
    const frame = host.page.frameLocator('iframe');
    await frame.locator('attn-figure svg[data-stage="weights"]').first().waitFor();
    const inside = await frame.locator('attn-figure').evaluate((el) => {
      const out = [];
      for (const cell of el.shadowRoot.querySelector('svg[data-stage="weights"][data-run="0"]').querySelectorAll('[data-value]')) {
        ((out[Number(cell.dataset.batch)] ??= [])[Number(cell.dataset.row)] ??= [])[Number(cell.dataset.col)] = Number(cell.dataset.value);
      }
      return { weights: out, height: Math.ceil(document.documentElement.getBoundingClientRect().height) };
    });
    expect(inside.weights).toEqual(expected);
    // The snippet's listener set the iframe to the height embed.html posted (its whole page).
    await host.page.waitForFunction((h) => document.querySelector('iframe').getBoundingClientRect().height === h, inside.height);
    expect(inside.height).toBeGreaterThan(420); // taller than the snippet's initial height: it grew
    expect([...problems, ...host.problems]).toEqual([]);
  });

  it("a post on another origin loads elements.js and its wasm from `npm start`'s server (CORS) and draws", async () => {
    // The blogger's first snippet: the site served by tools/static-server.mjs (as `npm start` does) on
    // one port, the post on the test pages' server, another port and so another origin.
    const site = await startServer(SITE);
    try {
      await pages.write(
        'cross-origin-post.html',
        `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
        <script type="module" src="${site.url}elements.js"></script>
        <attn-figure preset="seed-004" stages="scores weights"></attn-figure></body></html>`,
      );
      const post = await pages.open('cross-origin-post.html', { wait: false });
      expect(new URL(site.url).origin).not.toBe(new URL(pages.url).origin);
      await rendered(post.page, 'attn-figure', 'weights');
      const scores = await shadowStageValues(post.page, 'attn-figure', 'scores');
      expect(scores[0][0]).toEqual([7, 2, 11]); // seed 004: q1 = x1 = (1, 2) against k = x W^K
      expect(post.requests.some((url) => url.startsWith(site.url) && url.endsWith('.wasm'))).toBe(true);
      expect(post.problems).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it("the guide draws every example and the sample post's three figures, with no console error", async () => {
    const { page, problems } = await pages.open('site/guide.html');
    await drawAllFigures(page); // they draw only when near the viewport
    const post = await page.evaluate(() =>
      [...document.querySelectorAll('.guide-post attn-figure')].map((el) => ({
        attributes: Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])),
        stages: [...new Set([...el.shadowRoot.querySelectorAll('svg[data-stage]')].map((s) => s.dataset.stage))],
        scorings: [...new Set([...el.shadowRoot.querySelectorAll('svg[data-scoring]')].map((s) => s.dataset.scoring))],
      })),
    );
    expect(post).toHaveLength(3);
    expect(post[0].attributes.preset).toBe('d2l'); // d2l masking
    expect(post[0].stages).toEqual(['masked', 'weights', 'output']);
    expect(post[1].scorings).toEqual(['additive', 'scaled-dot']); // additive vs dot product
    expect(post[2].stages).toEqual(expect.arrayContaining(['weights', 'output', 'd-output', 'dq', 'dk', 'dv', 'dwq'])); // seed 004 backward
    const counts = await page.evaluate(() => ({
      examples: document.querySelectorAll('.guide-example').length,
      iframes: document.querySelectorAll('iframe').length,
    }));
    expect(counts.examples).toBeGreaterThanOrEqual(15);
    expect(counts.iframes).toBe(1);
    // The files section: the trained model's attentions from the site's own .safetensors asset.
    await page.waitForFunction(() => document.querySelector('attn-heads')?.shadowRoot.querySelector('[data-stage="heads"]'));
    expect(await page.evaluate(() => document.querySelector('attn-heads').shadowRoot.querySelectorAll('canvas[data-layer][data-head]').length)).toBe(
      2 * 4 + 4 + 2 * 3,
    );
    expect(problems).toEqual([]);
  });

  it("pipeline() draws the explorer's matrices: the same stages, heads, runs and numbers, for every preset", async () => {
    await pages.write(
      'pipeline.html',
      `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
      <script type="module">
        import { pipeline } from './web/figures/index.js';
        import { loadAttention } from './web/src/index.js';
        const attn = await loadAttention({ simd: true }); // the explorer's build: the same last bits
        window.draw = async (preset) => document.body.replaceChildren(await pipeline({ attn, preset, backward: true }));
        window.ready = true;
      </script></body></html>`,
    );
    const { page, problems } = await pages.open('pipeline.html', { wait: false });
    await page.waitForFunction(() => window.ready);
    for (const preset of ['seed-004', 'seed-002', 'd2l', 'sentence']) {
      const shown = await explorer(`?preset=${preset}`);
      const expected = await allValues(shown.page);
      await page.evaluate((p) => window.draw(p), preset);
      const drawn = await allValues(page);
      // Every matrix of the explorer's pipeline (forward and backward, the shown head) is drawn by
      // pipeline(), number for number (the training panel's own figures, train-* and loss-curve,
      // are not stages).
      const stagesOf = (values) =>
        [...new Set(Object.keys(values).map((key) => key.split('|')[0]))].filter((s) => !s.startsWith('train-') && s !== 'loss-curve');
      expect(stagesOf(drawn), preset).toEqual(stagesOf(expected));
      const missing = Object.keys(drawn).filter((key) => expected[key] === undefined);
      expect(missing, preset).toEqual([]);
      const differing = Object.keys(drawn).filter((key) => drawn[key] !== expected[key]);
      expect(differing, preset).toEqual([]);
      expect(shown.problems).toEqual([]);
    }
    expect(problems).toEqual([]);
  });
});
