// Editing and masking recompute everything downstream correctly; the URL holds the whole state;
// the keyboard reaches every cell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfAttention } from '../reference/matrices.js';
import { startSite } from '../support/site.js';
import { allValues, settle, stageValues, worstDifference } from '../support/figures.js';
import { SEED_004 } from '../support/seed-004.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

// float32 storage and a few dozen float32 operations on numbers below ~20.
const tolerance = (expected) => 2e-6 * Math.max(1, ...expected.flat(2).map(Math.abs).filter(Number.isFinite));

/** Types `text` into an editable cell through the keyboard (Enter opens the editor). */
async function typeInto(page, stage, row, col, text) {
  await page.locator(`svg[data-stage="${stage}"] .cell[data-row="${row}"][data-col="${col}"]`).focus();
  await page.keyboard.press('Enter');
  await page.locator('.cell-editor').fill(text);
  await page.keyboard.press('Enter');
  await settle(page);
}

describe('editing', () => {
  it('editing a cell of X changes Q and everything after it correctly', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await typeInto(page, 'x', 0, 1, '-0.75');
    const x = (await stageValues(page, 'x'))[0];
    expect(x).toEqual([
      [1, -0.75],
      [0, 1],
      [3, 1],
    ]);
    const expected = selfAttention({
      ...SEED_004,
      x: [
        [1, -0.75],
        [0, 1],
        [3, 1],
      ],
    });
    for (const stage of ['q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output']) {
      const actual = (await stageValues(page, stage))[0];
      const want = expected[stage === 'masked' ? 'scaled' : stage];
      const worst = worstDifference(actual, want);
      expect(worst.diff, `${stage} at ${worst.at}: ${worst.actual} vs ${worst.expected}`).toBeLessThanOrEqual(tolerance(want));
    }
    // Q changed where X did: row 1 of Q is row 1 of X (Wq = I).
    expect((await stageValues(page, 'q'))[0][0]).toEqual([1, -0.75]);
    expect(problems).toEqual([]);
  });

  it('the causal toggle zeroes the upper triangle of the weights', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await page.getByRole('radio', { name: 'top-left' }).click();
    await settle(page);
    const weights = (await stageValues(page, 'weights'))[0];
    weights.forEach((row, i) =>
      row.forEach((p, j) => {
        if (j > i) expect(p, `P[${i}][${j}]`).toBe(0);
      }),
    );
    const masked = await page.$$eval('svg[data-stage="weights"] .cell.masked', (cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.col)]));
    expect(masked).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    const expected = selfAttention(SEED_004, { causal: 'top-left' });
    expect(worstDifference(weights, expected.weights).diff).toBeLessThanOrEqual(tolerance(expected.weights));
    // docs/semantics.md: the causal output of seed 004 is [[3, 2], [2.609, 1.804], [3.992, 1.007]].
    expect(
      worstDifference((await stageValues(page, 'output'))[0], [
        [3, 2],
        [2.609, 1.804],
        [3.992, 1.007],
      ]).diff,
    ).toBeLessThanOrEqual(0.0005);
    expect(problems).toEqual([]);
  });

  it('the URL round trip restores the state: copy link, open it in a new page, the same numbers everywhere', async () => {
    const { page, problems } = await site.open('?preset=sentence', { permissions: ['clipboard-read', 'clipboard-write'] });
    await typeInto(page, 'x', 2, 3, '1.25');
    await page.getByRole('radio', { name: 'additive', exact: true }).click();
    await page.getByRole('radio', { name: 'per batch' }).click();
    await page.locator('svg[data-stage="scaled"] .cell[data-row="4"][data-col="1"]').click(); // mask one score by hand
    await page.getByRole('tab', { name: 'head 1' }).click();
    await settle(page);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.waitForFunction(() => document.getElementById('announcer').textContent.startsWith('Link copied'));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/\?preset=sentence&lang=en#s=/);
    const before = await allValues(page);
    const state = await page.evaluate(() => window.attentionLab.store.get());
    const copy = await site.open(link);
    expect(await copy.page.evaluate(() => window.attentionLab.store.get())).toEqual(state);
    const after = await allValues(copy.page);
    expect(Object.keys(after).length).toBeGreaterThan(200);
    expect(after).toEqual(before);
    expect([...problems, ...copy.problems]).toEqual([]);
  });

  it('the keyboard moves between cells with the arrows, Enter edits an input, and the explanation follows the focus', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Enter');
    // Tab from the pipeline's start reaches the first cell of X.
    for (let k = 0; k < 5 && !(await page.evaluate(() => document.activeElement?.closest?.('svg')?.dataset.stage === 'x')); k++)
      await page.keyboard.press('Tab');
    const focused = () =>
      page.evaluate(() => {
        const cell = document.activeElement;
        return [cell.closest('svg')?.dataset.stage, cell.dataset.row, cell.dataset.col, cell.getAttribute('aria-label')];
      });
    expect(await focused()).toEqual(['x', '0', '0', 'token embeddings, row 1 (Token1), column 1: 1']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    expect((await focused()).slice(0, 3)).toEqual(['x', '1', '1']);
    await page.keyboard.press('Enter');
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    await settle(page);
    expect((await focused()).slice(0, 3)).toEqual(['x', '2', '1']); // Enter commits and moves down, as in a spreadsheet
    expect((await stageValues(page, 'x'))[0][1]).toEqual([0, 4]);
    await page.locator('svg[data-stage="weights"] .cell[data-row="2"][data-col="0"]').focus();
    await expect.poll(() => page.locator('.explain-card .explain-kicker').textContent()).toContain('attention weights · row 3, col 1');
    expect(problems).toEqual([]);
  });
});
