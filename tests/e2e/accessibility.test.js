// Accessibility: axe-core (pinned, tests/support/axe.js) finds no serious or critical violation on the
// explorer (every preset in every view), the guide (every live example drawn), embed.html and a
// page of <attn-figure>/<attn-heatmap> from the raw sources, in the light and the dark theme.
// Moderate and minor findings (best practices such as "all content in landmarks" on embed.html,
// which is meant to sit inside another page's iframe) are not asserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE, VIEWPORTS } from '../support/site.js';
import { drawAllFigures, elementsPage, rendered, startPages } from '../support/pages.js';
import { settle } from '../support/figures.js';
import { axeViolations, blocking } from '../support/axe.js';
import { sharedPage } from '../support/browser.js';

const PRESETS = ['seed-004', 'seed-002', 'd2l', 'sentence', 'decode', 'random'];
const VIEWS = ['Matrix', 'Heatmap', 'Links'];

// One origin for the built site (site/) and a page of elements loading the raw web/.
let pages;
beforeAll(async () => {
  pages = await startPages({ links: { site: SITE } });
  await pages.write(
    'elements.html',
    elementsPage(
      `<main>
    <h1>Figures on a page</h1>
    <attn-figure preset="seed-004" backward captions></attn-figure>
    <attn-figure preset="d2l" stages="masked weights output" compare="dot"></attn-figure>
    <attn-figure preset="sentence" view="links"></attn-figure>
    <attn-heatmap weights="[[0.25, 0.75], [1, 0]]" row-labels="the cat" col-labels="the cat" numbers masked="[[0, 0], [0, 1]]"></attn-heatmap>
  </main>`,
      { head: '<title>attention-lab figures</title>' },
    ),
  );
});
afterAll(async () => {
  await pages?.close();
});

/** Asserts axe finds nothing serious or critical on the page; `where` names it in the message. */
async function expectAccessible(page, where) {
  const found = blocking(await axeViolations(page));
  expect(found, `${where}: ${found.map((v) => `${v.id} x${v.nodes}`).join(', ')}`).toEqual([]);
}

/**
 * The formulas that scroll (their box smaller than their content, in an axis whose overflow
 * scrolls) without being keyboard-focusable, as 'card: w/scrollW x h/scrollH'. axe's rule
 * (scrollable-region-focusable) only counts overflow of 13 px and more; a reader's keyboard cannot
 * scroll 3 px either.
 */
const unreachableFormulas = (page) =>
  page.$$eval('.stage-formula', (formulas) =>
    formulas
      .filter((f) => {
        const style = getComputedStyle(f);
        const scrolls = (overflow, content, box) => !['visible', 'hidden', 'clip'].includes(overflow) && content > box;
        return (scrolls(style.overflowX, f.scrollWidth, f.clientWidth) || scrolls(style.overflowY, f.scrollHeight, f.clientHeight)) && f.tabIndex < 0;
      })
      .map((f) => `${f.closest('[data-card]')?.dataset.card}: ${f.clientWidth}/${f.scrollWidth} x ${f.clientHeight}/${f.scrollHeight}`),
  );

/**
 * Asserts the formulas of seed-004's page (the backward pass brings the tallest and longest:
 * d-output, d-scores) scroll only where the keyboard can scroll them too; `where` names the page.
 */
async function expectFormulasReachable(page, where) {
  await page.waitForFunction(() => window.attentionLab && document.querySelector('svg[data-stage="d-scores"]'));
  await page.evaluate(() => document.fonts.ready);
  await settle(page);
  expect(await page.$$eval('[data-card]', (cards) => cards.map((c) => c.dataset.card)), where).toEqual(
    expect.arrayContaining(['scaled', 'weights', 'd-output', 'd-scores']),
  );
  expect(await unreachableFormulas(page), where).toEqual([]);
  // axe over the formulas (the Train panel's figures: the narrow pages' tests below).
  const found = (await axeViolations(page, { runOnly: ['scrollable-region-focusable'] })).flatMap((v) => v.examples).filter((e) => e.includes('stage-formula'));
  expect(found, where).toEqual([]);
}

describe("the formulas beside the cards' titles", () => {
  it('scroll only where the keyboard can scroll them too, with the backward pass (desktop)', async () => {
    const { page, problems } = await pages.open('site/index.html?preset=seed-004', { wait: false, viewport: VIEWPORTS.desktop });
    await expectFormulasReachable(page, 'desktop');
    expect(problems).toEqual([]);
  });
});

const NARROW = [
  ['320 px', { width: 320, height: 700 }],
  ['390 px', VIEWPORTS.phone],
];

// One seed-004 page a width for the two that only read it: its formulas, then axe over the whole
// page with the Train panel, whose figures (loss curve, attention, trained matrices) scroll sideways
// at 320 px: scrollable-region-focusable wants the keyboard to reach them.
describe.each(NARROW)('the explorer at %s, with the backward pass and the Train panel', (width, viewport) => {
  const opened = sharedPage(() => pages.open('site/index.html?preset=seed-004', { wait: false, viewport }));

  it('its formulas scroll only where the keyboard can scroll them too', async () => {
    await expectFormulasReachable(opened().page, width);
    expect(opened().problems, width).toEqual([]);
  });

  it('it is axe-core clean', async () => {
    const { page, problems } = opened();
    await page.waitForFunction(() => window.attentionLab && document.querySelector('[data-stage="loss-curve"]'));
    await settle(page);
    const scrolling = await page.$$eval('.train-figure', (boxes) => boxes.filter((b) => b.scrollWidth > b.clientWidth).length);
    if (viewport.width === 320) expect(scrolling).toBeGreaterThan(0); // the case the rule is about is there
    await expectAccessible(page, `explorer, Train panel, ${viewport.width} px`);
    expect(problems, width).toEqual([]);
  });
});

describe('narrow pages (320 and 390 px): the lab with a head opened', () => {
  it.each(NARROW)("the lab, with a clicked head's pipeline, is axe-core clean (%s)", async (_, viewport) => {
    const { page, problems } = await pages.open('site/index.html?view=lab', { wait: false, viewport });
    await page.waitForSelector('[data-role="status"][data-step="0"]', { timeout: 30_000 });
    await page.click('[data-role="model-view"] canvas[data-layer="1"][data-head="0"]');
    await page.waitForSelector('[data-role="head-pipeline"] svg[data-stage="weights"]');
    await settle(page);
    await expectAccessible(page, `lab, ${viewport.width} px`);
    expect(problems).toEqual([]);
  });
});

for (const colorScheme of ['light', 'dark']) {
  describe(`accessibility (axe-core), ${colorScheme} theme`, () => {
    // Every preset in light; in dark, where only colours change, one preset's views.
    for (const preset of colorScheme === 'light' ? PRESETS : ['d2l']) {
      it(`the explorer, preset ${preset}, in the ${VIEWS.join(', ')} views, with no console error`, async () => {
        const { page, problems } = await pages.open(`site/index.html?preset=${preset}`, { wait: false, colorScheme, viewport: VIEWPORTS.desktop });
        await page.waitForFunction(() => window.attentionLab && document.querySelector('svg[data-stage="weights"]'));
        for (const view of VIEWS) {
          await page.getByRole('radio', { name: view, exact: true }).click();
          await settle(page);
          await expectAccessible(page, `${preset}, ${view}, ${colorScheme}`);
        }
        // Back in the Matrix view after the other two, the backward pass is drawn again (presets.test.js
        // checks the presets this file does not open the same way).
        await page.getByRole('radio', { name: 'Matrix', exact: true }).click();
        await settle(page);
        expect(await page.locator('svg[data-stage="dq"]').count(), `${preset}, ${colorScheme}: the backward pass back in Matrix`).toBeGreaterThan(0);
        expect(problems, `${preset}, ${colorScheme}`).toEqual([]);
      });
    }

    it('the guide, with every example drawn', async () => {
      const { page, problems } = await pages.open('site/guide.html', { wait: false, colorScheme });
      await drawAllFigures(page);
      await expectAccessible(page, `guide, ${colorScheme}`);
      expect(problems).toEqual([]);
    });

    it('embed.html (the iframe embed), with the backward pass', async () => {
      const { page, problems } = await pages.open('site/embed.html?preset=d2l&backward', { wait: false, colorScheme });
      await drawAllFigures(page);
      await expectAccessible(page, `embed.html, ${colorScheme}`);
      expect(problems).toEqual([]);
    });

    it('a page of <attn-figure> and <attn-heatmap> elements', async () => {
      const { page, problems } = await pages.open('elements.html', { colorScheme });
      await rendered(page, 'attn-figure', 'output');
      await drawAllFigures(page);
      await expectAccessible(page, `elements, ${colorScheme}`);
      expect(problems).toEqual([]);
    });
  });
}
