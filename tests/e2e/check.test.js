// Check my hand calculation: the seed-002 preset opens with the tutorial's printed numbers typed
// in and checked, the page flags exactly the ones the exact values do not round to, names the
// slips in X W^Q they start from and says which later numbers follow from them; a stage checked
// by hand keeps its exact values hidden until Check (or Show the exact values) is pressed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfAttention } from '../reference/matrices.js';
import { startSite } from '../support/site.js';
import { settle } from '../support/figures.js';
import { SEED_002, SEED_002_PRINTED as PRINTED } from '../support/seed-002.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** Half a unit in the last printed decimal: the exact value must round to the printed number. */
const allowance = (text) => 0.5 * 10 ** -(text.split('.')[1]?.length ?? 0);

/** The page's verdicts of a stage in check mode: 'row,col' -> 'right' | 'wrong' | ... */
const verdicts = (page, stage) =>
  page.$$eval(`[data-check-stage="${stage}"] .check-cell`, (cells) =>
    Object.fromEntries(cells.map((c) => [`${c.dataset.row},${c.dataset.col}`, c.dataset.status])),
  );

describe('check my hand calculation', () => {
  it('the check-my-calculation mode flags exactly the wrong cells of the seed-002 text', async () => {
    const { page, problems } = await site.open('?preset=seed-002');
    const exact = selfAttention(SEED_002);
    let wrongTotal = 0;
    for (const [stage, rows] of Object.entries(PRINTED)) {
      const typed = await page.$$eval(`[data-check-stage="${stage}"] input`, (inputs) => inputs.map((i) => i.value));
      expect(typed, `${stage}: the preset types the text's numbers`).toEqual(rows.flat());
      const expected = {};
      rows.forEach((row, i) =>
        row.forEach((text, j) => {
          const miss = Math.abs(Number(text) - exact[stage][i][j]) - allowance(text);
          // No printed number sits within float32 rounding of the edge: the expected set is unambiguous.
          expect(Math.abs(miss), `${stage}[${i}][${j}] is too close to call`).toBeGreaterThan(1e-5);
          expected[`${i},${j}`] = miss > 0 ? 'wrong' : 'right';
        }),
      );
      expect(await verdicts(page, stage), stage).toEqual(expected);
      const wrong = Object.values(expected).filter((v) => v === 'wrong').length;
      wrongTotal += wrong;
      const summary = await page.locator(`[data-check-stage="${stage}"] .check-summary`).textContent();
      expect(summary).toContain(`${9 - wrong} of 9 numbers are right, ${wrong} ${wrong === 1 ? 'is' : 'are'} not.`);
    }
    // The diagnosis: the slips in Q come first, named with what they should be; the scaled scores
    // follow from the text's own scores.
    expect(await page.locator('[data-check-stage="q"] .check-summary').textContent()).toBe(
      '7 of 9 numbers are right, 2 are not. ' +
        'Slips in 2 cells: row 1, column 2: row 1 of X times column 2 of W^Q is 1, not 0; row 3, column 2: row 3 of X times column 2 of W^Q is 2, not 1. ' +
        'Later numbers that are off only because of earlier ones (the step itself done right): scores 4 of 9; scaled scores 9 of 9; attention weights 1 of 6; output 6 of 8.',
    );
    expect(await page.locator('[data-check-stage="scaled"] .check-summary').textContent()).toBe(
      '0 of 9 numbers are right, 9 are not. ' +
        'All 9 follow from your own scores: this step is done right, the difference comes from earlier (it starts in Q).',
    );
    expect(await page.locator('[data-check-stage="scaled"] .check-cell.is-follows').count()).toBe(9);
    // Checked stages show their exact values beside the marks.
    expect(await page.locator('[data-card="q"].is-exact-hidden').count()).toBe(0);
    // In Chinese (the page opened in zh-CN), in the tutorials' words.
    const zh = await site.open('?preset=seed-002&lang=zh-CN');
    await settle(zh.page);
    expect(await zh.page.locator('[data-check-stage="q"] .check-summary').textContent()).toBe(
      '9 个数中 7 个正确，2 个不对。' +
        '有 2 处笔误：第 1 行第 2 列：X 的第 1 行乘以 W^Q 的第 2 列是 1，不是 0；第 3 行第 2 列：X 的第 3 行乘以 W^Q 的第 2 列是 2，不是 1。' +
        '后面只因前面的数而偏离（这一步本身算对）的：注意力分数 9 个中的 4 个；缩放后的注意力分数 9 个中的 9 个；注意力权重 6 个中的 1 个；输出 8 个中的 6 个。',
    );
    // The text is wrong from Q on (docs/semantics.md): most of its 63 numbers are flagged, not all.
    expect(wrongTotal).toBeGreaterThan(30);
    expect(wrongTotal).toBeLessThan(63);
    expect(problems).toEqual([]);
    expect(zh.problems).toEqual([]);
  });

  it('typing numbers in check mode keeps the exact values hidden until Check, then marks each and says by how much', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const card = page.locator('[data-card="weights"]');
    await card.getByRole('button', { name: 'Check my calculation of attention weights' }).click();
    await settle(page);
    // The exact weights are not on the page while the student works them out.
    expect(await card.locator('.stage-figures').isVisible()).toBe(false);
    const summary = page.locator('[data-check-stage="weights"] .check-summary');
    expect(await summary.textContent()).toBe('Type your numbers, then press Check.');
    const field = (row, col) => page.locator(`input[data-check-input="weights"][data-row="${row}"][data-col="${col}"]`);
    await field(0, 0).fill('0.06'); // exact 0.0557: rounds to 0.06, right
    await page.keyboard.press('Tab');
    await page.keyboard.type('0.01'); // exact 0.00162: rounds to 0.00, wrong by 0.00838
    await page.keyboard.press('Enter');
    await settle(page);
    // Focus stays in the field that was typed in, across the re-render; no marks before Check.
    expect(await page.evaluate(() => document.activeElement.dataset.col)).toBe('1');
    expect(await verdicts(page, 'weights')).toMatchObject({ '0,0': 'unmarked', '0,1': 'unmarked' });
    expect(await summary.textContent()).toBe('2 of 9 typed. Press Check when you are done.');
    await card.getByRole('button', { name: 'Check my numbers for the attention weights' }).click();
    await settle(page);
    expect(await card.locator('.stage-figures').isVisible()).toBe(true);
    expect(await verdicts(page, 'weights')).toMatchObject({ '0,0': 'right', '0,1': 'wrong', '0,2': 'empty' });
    expect(await field(0, 1).getAttribute('aria-label')).toBe('Your attention weights, row 1, column 2: off by 0.00838 (allowed 0.005)');
    expect(await summary.textContent()).toBe(
      '1 of 2 numbers are right, 1 is not. ' +
        'A slip in one cell: row 1, column 2: the softmax of row 1 of the masked scores is 0.0016, not 0.01. 7 left empty.',
    );
    expect(problems).toEqual([]);
  });

  it('a matrix pasted into a check field fills the grid, each number kept as written', async () => {
    const { page, problems } = await site.open('?preset=seed-004', { permissions: ['clipboard-read', 'clipboard-write'] });
    const card = page.locator('[data-card="scores"]');
    await card.getByRole('button', { name: 'Check my calculation of raw scores' }).click();
    await settle(page);
    // Q Kᵀ of seed 004 (docs/semantics.md), as a NumPy print.
    await page.evaluate(() => navigator.clipboard.writeText('[[ 7.  2. 11.]\n [ 3.  1.  4.]\n [ 6.  1. 13.]]'));
    await page.locator('input[data-check-input="scores"][data-row="0"][data-col="0"]').focus();
    await page.keyboard.press('Control+V');
    await settle(page);
    const typed = await page.$$eval('[data-check-stage="scores"] input', (inputs) => inputs.map((i) => i.value));
    expect(typed).toEqual(['7.', '2.', '11.', '3.', '1.', '4.', '6.', '1.', '13.']);
    await card.getByRole('button', { name: 'Check my numbers for the scores' }).click();
    await settle(page);
    expect(await page.locator('[data-check-stage="scores"]').getAttribute('data-verdict')).toBe('right');
    expect(problems).toEqual([]);
  });

  it('scaled scores typed without the 1/sqrt(d) are named as such, with the number to divide by', async () => {
    const { page, problems } = await site.open('?preset=seed-004', { permissions: ['clipboard-read', 'clipboard-write'] });
    const card = page.locator('[data-card="scaled"]');
    await card.getByRole('button', { name: 'Check my calculation of scaled scores' }).click();
    await settle(page);
    await page.evaluate(() => navigator.clipboard.writeText('7 2 11\n3 1 4\n6 1 13'));
    await page.locator('input[data-check-input="scaled"][data-row="0"][data-col="0"]').focus();
    await page.keyboard.press('Control+V');
    await card.getByRole('button', { name: 'Check my numbers for the scaled scores' }).click();
    await settle(page);
    expect(await page.locator('[data-check-stage="scaled"]').getAttribute('data-mistake')).toBe('no-scaling');
    // The two 1s are right too: 1/√2 ≈ 0.71 rounds to 1, the precision they were typed with.
    expect(await page.locator('[data-check-stage="scaled"] .check-summary').textContent()).toBe(
      '2 of 9 numbers are right, 7 are not. ' +
        'Your numbers match the computation without the scaling: divide each score by √d = √2 ≈ 1.414 before the softmax.',
    );
    expect(problems).toEqual([]);
  });

  it('Show the exact values reveals the matrix without marking anything', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const card = page.locator('[data-card="output"]');
    await card.getByRole('button', { name: 'Check my calculation of output' }).click();
    await settle(page);
    await page.locator('input[data-check-input="output"][data-row="0"][data-col="0"]').fill('3');
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: 'Show the exact output without checking' }).click();
    await settle(page);
    expect(await card.locator('.stage-figures').isVisible()).toBe(true);
    expect(await verdicts(page, 'output')).toMatchObject({ '0,0': 'unmarked' });
    expect(problems).toEqual([]);
  });
});
