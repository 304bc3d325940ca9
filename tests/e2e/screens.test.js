// How the page looks: screenshots at desktop (1280 x 900) and phone (390 x 844) widths, light and
// dark, into tests/artifacts/site/ (look at them). How fast it appears: first-render.test.js.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, startSite, VIEWPORTS } from '../support/site.js';
import { settle } from '../support/figures.js';

let site;
beforeAll(async () => {
  site = await startSite();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  await site?.close();
});

/** Scrolls so that the element's top sits just below the masthead where it is sticky (desktop). */
const scrollTo = (page, selector) =>
  page.$eval(selector, (node) => {
    node.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -(Math.max(0, document.querySelector('.masthead').getBoundingClientRect().bottom) + 12));
  });

describe('screens', () => {
  // One test per preset: a test of all four took 37 s alone and up to 60 with another file beside it.
  it.each(['seed-004', 'seed-002', 'd2l', 'sentence'])(
    'screenshots of preset %s at desktop and phone widths, light and dark, show no error',
    async (preset) => {
      for (const [width, viewport] of Object.entries(VIEWPORTS)) {
        for (const colorScheme of ['light', 'dark']) {
          const { page, problems } = await site.open(`?preset=${preset}`, { viewport, colorScheme });
          await page.evaluate(() => document.fonts.ready);
          await page.screenshot({ path: path.join(ARTIFACTS, `${preset}-${width}-${colorScheme}.png`), fullPage: true });
          expect(await page.locator('.error-box').count(), `${preset} ${width} ${colorScheme}`).toBe(0);
          expect(problems, `${preset} ${width} ${colorScheme}`).toEqual([]);
        }
      }
    },
  );

  // The views, the backward pass, check mode, training, Generate and the explanation, a test each.
  const shots = [
    ['sentence-heatmap-desktop-light', '?preset=sentence', async (page) => page.getByRole('radio', { name: 'Heatmap' }).click()],
    ['sentence-links-desktop-dark', '?preset=sentence', async (page) => page.getByRole('radio', { name: 'Links' }).click(), 'dark'],
    ['seed-004-backward-desktop-light', '?preset=seed-004', (page) => scrollTo(page, '.band-gradients')],
    ['seed-002-check-desktop-dark', '?preset=seed-002', (page) => scrollTo(page, '[data-card="weights"]'), 'dark'],
    [
      'seed-004-explain-dscores-desktop-light',
      '?preset=seed-004',
      async (page) => page.locator('svg[data-stage="d-scores"] .cell[data-row="1"][data-col="2"]').focus(),
    ],
    [
      'seed-004-train-desktop-light',
      '?preset=seed-004',
      async (page) => {
        await page.getByRole('button', { name: 'Train', exact: true }).click();
        await page.waitForFunction(() => Number(document.querySelector('svg[data-stage="loss-curve"]').dataset.count) > 40);
        await page.getByRole('button', { name: 'Stop', exact: true }).click();
        await scrollTo(page, '.train-card');
      },
    ],
    ['seed-004-train-phone-dark', '?preset=seed-004', (page) => scrollTo(page, '.train-card'), 'dark', VIEWPORTS.phone],
    ['seed-002-check-phone-light', '?preset=seed-002', (page) => scrollTo(page, '[data-card="weights"]'), 'light', VIEWPORTS.phone],
    ...['desktop', 'phone'].map((size) => [
      `decode-generate-${size}-${size === 'phone' ? 'dark' : 'light'}`,
      '?preset=decode',
      async (page) => {
        for (let k = 0; k < 3; k++) await page.getByRole('button', { name: 'Step: feed the next token' }).click();
        await scrollTo(page, '.generate-card');
      },
      size === 'phone' ? 'dark' : 'light',
      VIEWPORTS[size],
    ]),
    ['decode-output-desktop-light', '?preset=decode', (page) => scrollTo(page, '.band-output')],
  ];
  for (const [name, query, act, colorScheme = 'light', viewport = VIEWPORTS.desktop] of shots) {
    it(`screenshot ${name}`, async () => {
      const { page, problems } = await site.open(query, { colorScheme, viewport });
      await act(page);
      await settle(page);
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
      expect(problems, name).toEqual([]);
    });
  }
});
