// The explorer's "Save as HTML" (web/site/features/save-html): the whole example from the
// masthead, one stage from a card's figure menu, each as one file that opens from file:// with
// every other request blocked and shows exactly the numbers the explorer shows (backward included).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shadowStageValues, stageValues } from '../support/figures.js';
import { openOffline } from '../support/offline.js';
import { startSite } from '../support/site.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The downloaded file a click starts: { name, text }. */
async function downloaded(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync(await download.path(), 'utf8') };
}

const shownStages = (page) =>
  page.evaluate(() => [...document.querySelector('attn-figure').shadowRoot.querySelectorAll('svg[data-stage]')].map((s) => s.dataset.stage));

describe('Save as HTML', () => {
  it("the masthead saves the whole example, backward included, with the explorer's exact numbers", async () => {
    const { page, problems } = await site.open('?preset=d2l');
    const file = await downloaded(page, () => page.getByRole('button', { name: 'Save as HTML' }).click());
    expect(file.name).toBe('attention-lab-d2l.html');
    const saved = await openOffline(file.name, file.text);
    const stages = await shownStages(saved.page);
    expect(stages).toEqual(expect.arrayContaining(['weights', 'output', 'd-scores', 'dq']));
    for (const stage of ['weights', 'output', 'd-scores', 'dq']) {
      // The same float32 numbers as data-value strings: the saved file computes with the same core.
      expect(await shadowStageValues(saved.page, 'attn-figure', stage), stage).toEqual(await stageValues(page, stage));
    }
    expect(saved.problems).toEqual([]);
    expect(problems).toEqual([]);
    await saved.context.close();
  });

  it("a card's figure menu saves that stage alone, a gradient card included", async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const menu = page.locator('[data-card="weights"] details.figure-menu');
    await menu.locator('summary').click();
    const file = await downloaded(page, () => menu.locator('[data-action="html"]').first().click());
    expect(file.name).toBe('attention-lab-seed-004-weights.html');
    const saved = await openOffline(file.name, file.text);
    expect(await shownStages(saved.page)).toEqual(['weights']);
    expect(await shadowStageValues(saved.page, 'attn-figure', 'weights')).toEqual(await stageValues(page, 'weights'));
    expect(saved.problems).toEqual([]);
    await saved.context.close();

    // A gradient card: that stage alone too (not every gradient band), its numbers the explorer's.
    const dqMenu = page.locator('[data-card="dq"] details.figure-menu');
    await dqMenu.locator('summary').click();
    const dqFile = await downloaded(page, () => dqMenu.locator('[data-action="html"]').first().click());
    const dq = await openOffline(dqFile.name, dqFile.text);
    expect(await shownStages(dq.page)).toEqual(['dq']);
    expect(await shadowStageValues(dq.page, 'attn-figure', 'dq')).toEqual(await stageValues(page, 'dq'));
    expect(dq.problems).toEqual([]);
    expect(problems).toEqual([]);
    await dq.context.close();
  });
});
