// The explorer's layout where a newcomer saw it fail: the Explain panel, sticky on wide screens,
// stays below the sticky masthead (whose height changes with its wrapped preset buttons and the
// language); the RoPE base field shows its whole number; the headline follows a resized example.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The masthead's bottom and the rectangle of `selector`, in the viewport. */
const boxes = (page, selector) =>
  page.evaluate((sel) => {
    const node = document.querySelector(sel);
    const { top, left, width, height } = node.getBoundingClientRect();
    const hit = document.elementFromPoint(left + width / 2, top + height / 2);
    return { mastheadBottom: document.querySelector('.masthead').getBoundingClientRect().bottom, top, covered: !node.contains(hit) };
  }, selector);

describe("the explorer's layout", () => {
  // 1440 px and wider: three columns, the Explain panel sticky beside the pipeline.
  it.each([
    ['en', 1600],
    ['zh-CN', 1600],
    ['en', 1440],
  ])('the sticky Explain panel keeps its title and close button below the masthead while the page scrolls (%s, %i px)', async (lang, width) => {
    const { page, problems } = await site.open(`?preset=seed-004&lang=${lang}`, { viewport: { width, height: 900 } });
    await page.evaluate(() => document.fonts.ready);
    const empty = await boxes(page, '.explain');
    expect(await page.locator('.explain').textContent(), "the placeholder's key names").not.toContain('[object');
    await page.locator('svg[data-stage="d-scores"] .cell[data-row="1"][data-col="2"]').focus();
    await page.waitForSelector('.explain-card');
    for (const y of [600, 1400, 2400]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await settle(page);
      for (const part of ['.explain-kicker', '.explain-close']) {
        const at = await boxes(page, part);
        expect(at.top, `${part} at scroll ${y}: top ${at.top}, masthead bottom ${at.mastheadBottom} (empty panel at ${empty.top})`).toBeGreaterThanOrEqual(
          at.mastheadBottom,
        );
        expect(at.covered, `${part} at scroll ${y} is covered`).toBe(false);
      }
    }
    expect(problems).toEqual([]);
  });

  // Below 1440 px the Explain panel is a sheet at the window's foot, where a paste's note appears too.
  it.each([
    ['tablet', { width: 1280, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ])("a paste's note does not cover the Explain sheet (%s)", async (_, viewport) => {
    const { page, problems } = await site.open('?preset=seed-004', { viewport, permissions: ['clipboard-read', 'clipboard-write'] });
    await page.evaluate(() => navigator.clipboard.writeText('1 0 1 0\n0 2 0 2\n1 1 1 1'));
    await page.locator('svg[data-stage="x"] .cell[data-row="0"][data-col="0"]').focus();
    await page.keyboard.press('Control+V');
    await page.waitForSelector('.paste-notice');
    await page.waitForSelector('.explain-card');
    await settle(page);
    const [note, sheet] = await Promise.all(['.paste-notice', '.explain'].map((sel) => page.$eval(sel, (n) => n.getBoundingClientRect().toJSON())));
    const overlap = note.left < sheet.right && sheet.left < note.right && note.top < sheet.bottom && sheet.top < note.bottom;
    expect(overlap, `note ${JSON.stringify(note)} and sheet ${JSON.stringify(sheet)}`).toBe(false);
    expect(problems).toEqual([]);
  });

  it("a paste's note goes when another example is picked (it spoke of the last one's matrices)", async () => {
    const { page, problems } = await site.open('?preset=seed-004', { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.evaluate(() => navigator.clipboard.writeText('1 0 1 0\n0 2 0 2\n1 1 1 1'));
    await page.locator('svg[data-stage="x"] .cell[data-row="0"][data-col="0"]').focus();
    await page.keyboard.press('Control+V');
    await page.waitForSelector('.paste-notice');
    // An edit of the same example keeps it.
    await page.getByRole('button', { name: 'more Tokens' }).click();
    await settle(page);
    expect(await page.locator('.paste-notice').count()).toBe(1);
    await page.getByRole('radio', { name: 'Self-attention by hand: 3 tokens, width 4' }).click();
    await settle(page);
    expect(await page.locator('.paste-notice').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('the RoPE base field shows 10000 and the largest base whole', async () => {
    const { page, problems } = await site.open('?preset=rotary');
    const field = page.getByRole('spinbutton', { name: 'RoPE base' });
    for (const value of ['10000', '1000000']) {
      await field.fill(value);
      await field.press('Tab');
      await settle(page);
      const { shown, room, state } = await field.evaluate((input) => ({
        shown: input.scrollWidth,
        room: input.clientWidth,
        state: window.attentionLab.store.get().ropeBase,
      }));
      expect(state).toBe(Number(value));
      expect(shown, `${value}: text ${shown} px wide in a field of ${room} px`).toBeLessThanOrEqual(room);
    }
    expect(problems).toEqual([]);
  });

  it("the headline follows the example's sizes: resized, it says so and gives the new sizes", async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const lede = page.locator('.intro-lede');
    const before = await lede.textContent();
    expect(before).toMatch(/^3 tokens of width 2/);
    await page.getByRole('button', { name: 'more Tokens' }).click();
    await page.getByRole('button', { name: 'more Input width' }).click();
    await settle(page);
    const after = await lede.textContent();
    expect(after).not.toBe(before);
    expect(after).toMatch(/Tokens 3 → 4/);
    expect(after).toMatch(/Input width 2 → 3/);
    // Back to the preset's sizes: its own summary again.
    await page.getByRole('button', { name: 'fewer Tokens' }).click();
    await page.getByRole('button', { name: 'fewer Input width' }).click();
    await settle(page);
    expect(await lede.textContent()).toBe(before);
    expect(problems).toEqual([]);
  });
});
