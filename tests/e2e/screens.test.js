// How the page looks: screenshots at desktop (1280 x 900) and phone (390 x 844) widths, light and
// dark, into tests/artifacts/site/ (look at them). How fast it appears: first-render.test.js.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, startSite, VIEWPORTS } from '../support/site.js';
import { settle } from '../support/figures.js';
import { sharedPage } from '../support/browser.js';

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

// The presets whose every look (desktop and phone, light and dark) is shot full-page.
const PRESETS = ['seed-004', 'seed-002', 'd2l', 'sentence'];

// The views, the backward pass, check mode, training, Generate and the explanation, a test each:
// [name, preset, act, colorScheme, width]. On a page shared with others, those that only scroll or
// focus come before those that click.
const shots = [
  ['sentence-heatmap-desktop-light', 'sentence', async (page) => page.getByRole('radio', { name: 'Heatmap' }).click()],
  ['sentence-links-desktop-dark', 'sentence', async (page) => page.getByRole('radio', { name: 'Links' }).click(), 'dark'],
  ['seed-004-backward-desktop-light', 'seed-004', (page) => scrollTo(page, '.band-gradients')],
  ['seed-002-check-desktop-dark', 'seed-002', (page) => scrollTo(page, '[data-card="weights"]'), 'dark'],
  ['seed-004-explain-dscores-desktop-light', 'seed-004', async (page) => page.locator('svg[data-stage="d-scores"] .cell[data-row="1"][data-col="2"]').focus()],
  [
    'seed-004-train-desktop-light',
    'seed-004',
    async (page) => {
      await page.getByRole('button', { name: 'Train', exact: true }).click();
      await page.waitForFunction(() => Number(document.querySelector('svg[data-stage="loss-curve"]').dataset.count) > 40);
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await scrollTo(page, '.train-card');
    },
  ],
  ['seed-004-train-phone-dark', 'seed-004', (page) => scrollTo(page, '.train-card'), 'dark', 'phone'],
  ['seed-002-check-phone-light', 'seed-002', (page) => scrollTo(page, '[data-card="weights"]'), 'light', 'phone'],
  ['decode-output-desktop-light', 'decode', (page) => scrollTo(page, '.band-output')],
  ...['desktop', 'phone'].map((width) => [
    `decode-generate-${width}-${width === 'phone' ? 'dark' : 'light'}`,
    'decode',
    async (page) => {
      for (let k = 0; k < 3; k++) await page.getByRole('button', { name: 'Step: feed the next token' }).click();
      await scrollTo(page, '.generate-card');
    },
    width === 'phone' ? 'dark' : 'light',
    width,
  ]),
].map(([name, preset, act, colorScheme = 'light', width = 'desktop']) => ({ name, preset, act, colorScheme, width }));

// Each look of a page (preset, width, colour scheme) is opened once, for its full-page screenshot
// and then the shots taken on it.
const looks = new Map();
for (const preset of PRESETS)
  for (const width of Object.keys(VIEWPORTS))
    for (const colorScheme of ['light', 'dark']) looks.set(`${preset} ${width} ${colorScheme}`, { preset, width, colorScheme });
for (const { preset, width, colorScheme } of shots) looks.set(`${preset} ${width} ${colorScheme}`, { preset, width, colorScheme });

describe('screens', () => {
  for (const [look, { preset, width, colorScheme }] of looks) {
    describe(`preset ${preset} at ${width} width, ${colorScheme}`, () => {
      const opened = sharedPage(() => site.open(`?preset=${preset}`, { viewport: VIEWPORTS[width], colorScheme }));

      if (PRESETS.includes(preset))
        it('a full-page screenshot shows no error', async () => {
          const { page, problems } = opened();
          await page.evaluate(() => document.fonts.ready);
          await page.screenshot({ path: path.join(ARTIFACTS, `${preset}-${width}-${colorScheme}.png`), fullPage: true });
          expect(await page.locator('.error-box').count(), look).toBe(0);
          expect(problems, look).toEqual([]);
        });

      for (const { name, act } of shots.filter((shot) => `${shot.preset} ${shot.width} ${shot.colorScheme}` === look)) {
        it(`screenshot ${name}`, async () => {
          const { page, problems } = opened();
          // As the page opened: no number explained, nothing focused, at the top.
          await page.evaluate(() => {
            document.querySelector('.explain-close')?.click();
            document.activeElement?.blur();
            window.scrollTo(0, 0);
          });
          await act(page);
          await settle(page);
          await page.evaluate(() => document.fonts.ready);
          await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
          expect(problems, name).toEqual([]);
        });
      }
    });
  }
});
