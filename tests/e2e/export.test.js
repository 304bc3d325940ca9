// Exports: a figure as a standalone SVG (valid, the same numbers, nothing left that needs the
// page's CSS) and as a PNG (its rasterisation), a matrix as CSV, every stage as JSON.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';
import { sharedPage } from '../support/browser.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** Runs a figure menu action of a card and returns the downloaded file: { name, bytes }. */
async function exportFrom(page, card, action) {
  const menu = page.locator(`[data-card="${card}"] details.figure-menu`);
  await menu.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), menu.locator(`[data-action="${action}"]`).first().click()]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

/** The figure on the page: its size, its cells' data-value and the numbers drawn in them. */
const figureOnPage = (page, stage) =>
  page.$eval(`svg[data-stage="${stage}"]`, (svg) => ({
    width: Number(svg.getAttribute('width')),
    height: Number(svg.getAttribute('height')),
    values: [...svg.querySelectorAll('.cell')].map((c) => c.dataset.value),
    texts: [...svg.querySelectorAll('.cell .num')].map((t) => t.textContent),
  }));

describe('export', () => {
  // One seed-004 page for the three: the exports only read it (a menu closes once its action runs),
  // and the SVG test, which sets the causal mask, comes last.
  const opened = sharedPage(() => site.open('?preset=seed-004'));

  it('PNG export is a valid PNG of the figure at twice its size', async () => {
    const { page, problems } = opened();
    const file = await exportFrom(page, 'output', 'png');
    expect(file.name).toBe('attention-lab-seed-004-output.png');
    const png = file.bytes;
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    const shown = await figureOnPage(page, 'output');
    // The export adds a 10 px margin on every side and rasterises at 2 device pixels per pixel.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2 * (shown.width + 20), 2 * (shown.height + 20)]);
    expect(png.toString('latin1', png.length - 8, png.length - 4)).toBe('IEND');
    expect(problems).toEqual([]);
  });

  it('CSV export of a matrix and JSON export of every stage hold the exact values', async () => {
    const { page, problems } = opened();
    const csv = (await exportFrom(page, 'weights', 'csv')).bytes.toString('utf8').trim().split('\n');
    const shown = await figureOnPage(page, 'weights');
    expect(csv[0]).toBe('row,Token1,Token2,Token3');
    expect(
      csv
        .slice(1)
        .map((line) => line.split(',').slice(1))
        .flat(),
    ).toEqual(shown.values);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download all stages as JSON' }).click()]);
    const json = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    expect(Object.keys(json.stages)).toEqual(expect.arrayContaining(['x', 'q', 'scores', 'weights', 'output', 'd-output', 'd-scores', 'dq', 'dwv']));
    expect(json.stages.weights[0].data.map(String)).toEqual(shown.values);
    expect(json.state).toEqual(await page.evaluate(() => window.attentionLab.store.get()));
    expect(problems).toEqual([]);
  });

  it('SVG export is valid SVG with the same numbers', async () => {
    const { page, problems } = opened();
    await page.getByRole('radio', { name: 'top-left' }).click(); // masked cells: the hatch pattern must travel too
    await settle(page);
    for (const stage of ['weights', 'masked']) {
      const file = await exportFrom(page, stage, 'svg');
      expect(file.name).toBe(`attention-lab-seed-004-${stage}.svg`);
      const text = file.bytes.toString('utf8');
      const parsed = await page.evaluate((svgText) => {
        const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
        const root = doc.documentElement;
        const ids = new Set([...doc.querySelectorAll('[id]')].map((n) => n.id));
        const refs = [...svgText.matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]);
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          root: [root.namespaceURI, root.localName, root.getAttribute('data-stage')],
          values: [...doc.querySelectorAll('.cell, [data-value]')].filter((c) => c.hasAttribute('data-row')).map((c) => c.getAttribute('data-value')),
          texts: [...doc.querySelectorAll('[data-value] text')].map((t) => t.textContent),
          missingRefs: refs.filter((id) => !ids.has(id)),
        };
      }, text);
      const shown = await figureOnPage(page, stage);
      expect(parsed.error).toBeNull();
      expect(parsed.root).toEqual(['http://www.w3.org/2000/svg', 'svg', stage]);
      expect(parsed.values).toEqual(shown.values);
      expect(parsed.texts).toEqual(shown.texts);
      expect(parsed.missingRefs).toEqual([]);
      // Standalone: every colour resolved, no custom property or colour function of the page's CSS.
      expect(text).not.toMatch(/var\(|color-mix|light-dark|oklab|oklch/);
    }
    expect(problems).toEqual([]);
  });
});
