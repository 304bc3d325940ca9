// Check my hand calculation: the seed-002 preset opens with the tutorial's printed numbers typed
// in, and the page flags exactly the ones the exact values do not round to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfAttention } from '../reference/matrices.js';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';

let site;
beforeAll(async () => { site = await startSite(); });
afterAll(async () => { await site?.close(); });

// seed 002 as printed in its text (Step 1 to Step 4), digits as printed.
const PRINTED = {
  q: [['1', '0', '1'], ['2', '2', '2'], ['2', '1', '2']],
  k: [['0', '1', '1'], ['4', '0', '2'], ['2', '2', '1']],
  v: [['0', '1', '1'], ['2', '2', '2'], ['2', '2', '1']],
  scores: [['1', '2', '3'], ['4', '8', '8'], ['3', '6', '7']],
  scaled: [['0.58', '1.15', '1.73'], ['2.31', '4.62', '4.62'], ['1.73', '3.46', '4.04']],
  weights: [['0.20', '0.30', '0.50'], ['0.02', '0.49', '0.49'], ['0.04', '0.24', '0.72']],
  output: [['1.6', '1.8', '1.3'], ['2.0', '2.0', '1.5'], ['1.9', '1.9', '1.1']],
};
const SEED_002 = {
  x: [[1, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]],
  wq: [[1, 0, 1], [1, 0, 0], [0, 1, 0], [0, 1, 1]],
  wk: [[0, 1, 1], [1, 0, 1], [0, 1, 0], [1, 0, 0]],
  wv: [[0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 0, 1]],
};

/** Half a unit in the last printed decimal: the exact value must round to the printed number. */
const allowance = (text) => 0.5 * 10 ** -(text.split('.')[1]?.length ?? 0);

/** The page's verdicts of a stage in check mode: 'row,col' -> 'right' | 'wrong' | ... */
const verdicts = (page, stage) => page.$$eval(`[data-check-stage="${stage}"] .check-cell`, (cells) =>
  Object.fromEntries(cells.map((c) => [`${c.dataset.row},${c.dataset.col}`, c.dataset.status])));

describe('check my hand calculation', () => {
  it('the check-my-calculation mode flags exactly the wrong cells of the seed-002 text', async () => {
    const { page, problems } = await site.open('?preset=seed-002');
    const exact = selfAttention(SEED_002);
    let wrongTotal = 0;
    for (const [stage, rows] of Object.entries(PRINTED)) {
      const typed = await page.$$eval(`[data-check-stage="${stage}"] input`, (inputs) => inputs.map((i) => i.value));
      expect(typed, `${stage}: the preset types the text's numbers`).toEqual(rows.flat());
      const expected = {};
      rows.forEach((row, i) => row.forEach((text, j) => {
        const miss = Math.abs(Number(text) - exact[stage][i][j]) - allowance(text);
        // No printed number sits within float32 rounding of the edge: the expected set is unambiguous.
        expect(Math.abs(miss), `${stage}[${i}][${j}] is too close to call`).toBeGreaterThan(1e-5);
        expected[`${i},${j}`] = miss > 0 ? 'wrong' : 'right';
      }));
      expect(await verdicts(page, stage), stage).toEqual(expected);
      const wrong = Object.values(expected).filter((v) => v === 'wrong').length;
      wrongTotal += wrong;
      const summary = await page.locator(`[data-check-stage="${stage}"] .check-summary`).textContent();
      expect(summary).toContain(`${wrong} of 9 cells differ`);
    }
    // The text is wrong from Q on (docs/semantics.md): most of its 63 numbers are flagged, not all.
    expect(wrongTotal).toBeGreaterThan(30);
    expect(wrongTotal).toBeLessThan(63);
    expect(problems).toEqual([]);
  });

  it('typing a number in check mode marks it right or wrong and says by how much', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const card = page.locator('[data-card="weights"]');
    await card.getByRole('button', { name: 'Check my calculation of attention weights' }).click();
    await settle(page);
    const field = (row, col) => page.locator(`input[data-check-input="weights"][data-row="${row}"][data-col="${col}"]`);
    await field(0, 0).fill('0.06'); // exact 0.0557: rounds to 0.06, right
    await page.keyboard.press('Tab');
    await page.keyboard.type('0.01'); // exact 0.0016: rounds to 0.00, wrong by 0.0084
    await page.keyboard.press('Enter');
    await settle(page);
    expect(await verdicts(page, 'weights')).toMatchObject({ '0,0': 'right', '0,1': 'wrong', '0,2': 'empty' });
    expect(await page.locator('[data-check-stage="weights"] .check-summary').textContent())
      .toBe('1 of 9 cells differ; largest difference 0.0084 at row 1, col 2; 7 empty.');
    // Focus stays in the field that was typed in, across the re-render.
    expect(await page.evaluate(() => document.activeElement.dataset.col)).toBe('1');
    expect(problems).toEqual([]);
  });
});
