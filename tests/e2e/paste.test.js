// Your own numbers, fast: the Illustrated-Self-Attention example (seed 002's X 3 x 4 and
// W^Q, W^K, W^V 4 x 3) entered by pasting four matrices onto seed 004 (X 3 x 2, W 2 x 2), the sizes
// following each pasted shape with a visible note; a refused paste says why; typing a digit on a
// focused cell starts editing it, Enter moves down, Tab right (wrapping), Shift reverses, Escape cancels.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfAttention } from '../reference/matrices.js';
import { ARTIFACTS, startSite } from '../support/site.js';
import { settle, stageValues, worstDifference } from '../support/figures.js';
import { SEED_002 } from '../support/seed-002.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

// Each matrix in another of the forms people copy from: the tutorial's LaTeX (as a web copy
// of it has it, one backslash of each row break lost), a NumPy print, a spreadsheet's TSV, a Markdown table.
const PASTED = {
  x: 'X = \\begin{bmatrix}\n1 & 0 & 1 & 0 \\ 0 & 2 & 0 & 2 \\ 1 & 1 & 1 & 1\n\\end{bmatrix}',
  wq: '[[1. 0. 1.]\n [1. 0. 0.]\n [0. 1. 0.]\n [0. 1. 1.]]',
  wk: '0\t1\t1\n1\t0\t1\n0\t1\t0\n1\t0\t0\n',
  wv: '| a | b | c |\n|---|---|---|\n| 0 | 0 | 1 |\n| 1 | 1 | 0 |\n| 0 | 1 | 0 |\n| 1 | 0 | 1 |',
};
// float32 storage and a few dozen float32 operations on numbers below ~20.
const tolerance = (expected) => 2e-6 * Math.max(1, ...expected.flat(2).map(Math.abs).filter(Number.isFinite));

const cell = (page, stage, row, col) => page.locator(`svg[data-stage="${stage}"] .cell[data-row="${row}"][data-col="${col}"]`);

/** Puts text on the clipboard and pastes it (Ctrl+V) onto the focused cell of `stage`. */
async function pasteOnto(page, stage, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await cell(page, stage, 0, 0).focus();
  await page.keyboard.press('Control+V');
  await settle(page);
}

const notice = (page) => page.locator('.paste-notice').textContent();

describe('pasting a matrix', () => {
  it('the seed-002 example is entered by pasting four matrices, and every stage is recomputed exactly', async () => {
    const { page, problems } = await site.open('?preset=seed-004', { permissions: ['clipboard-read', 'clipboard-write'] });
    const origin = () => page.locator('.intro-origin').textContent();
    expect(await origin()).toMatch(/^From a Chinese blog post/);
    await pasteOnto(page, 'x', PASTED.x);
    expect((await stageValues(page, 'x'))[0]).toEqual(SEED_002.x);
    // The numbers are the student's now: the origin line no longer credits the preset's source.
    expect(await origin()).toBe('Your own numbers, started from the preset “Self-attention in code: 3 tokens, width 2”.');
    expect(await notice(page)).toBe(
      'Pasted a 3 × 4 matrix into X. d_in is now 4 (was 2): W^Q, W^K, W^V were resized to match, new numbers seeded; paste them next.',
    );
    // The page recomputed at once: Q = X W^Q with the seeded rows W^Q got, 3 x 2.
    expect((await stageValues(page, 'q'))[0]).toHaveLength(3);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('[data-card="x"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}paste-latex-x.png` });

    await pasteOnto(page, 'wq', PASTED.wq);
    expect(await notice(page)).toBe('Pasted a 4 × 3 matrix into W^Q. d_q is now 3 (was 2): W^K was resized to match, new numbers seeded; paste it next.');
    await pasteOnto(page, 'wk', PASTED.wk);
    expect(await notice(page)).toBe('Pasted a 4 × 3 matrix into W^K.');
    await pasteOnto(page, 'wv', PASTED.wv);
    expect(await notice(page)).toBe('Pasted a 4 × 3 matrix into W^V. d_v is now 3 (was 2).');

    const expected = selfAttention(SEED_002);
    for (const stage of ['q', 'k', 'v', 'scores', 'scaled', 'weights', 'output']) {
      const actual = (await stageValues(page, stage))[0];
      const worst = worstDifference(actual, expected[stage]);
      expect(worst.diff, `${stage} at ${worst.at}: ${worst.actual} vs ${worst.expected}`).toBeLessThanOrEqual(tolerance(expected[stage]));
    }
    expect(problems).toEqual([]);
  });

  it('a ragged paste changes nothing and says which row is short', async () => {
    const { page, problems } = await site.open('?preset=seed-004', { permissions: ['clipboard-read', 'clipboard-write'] });
    const before = await stageValues(page, 'x');
    await pasteOnto(page, 'x', '1 2\n3');
    expect(await notice(page)).toBe('Nothing pasted into X: row 2 has 1 number but row 1 has 2.');
    expect(await page.locator('.paste-notice').getAttribute('role')).toBe('alert');
    expect(await stageValues(page, 'x')).toEqual(before);
    // A computed matrix says where numbers can go instead.
    await pasteOnto(page, 'q', '1 2\n3 4\n5 6');
    expect(await notice(page)).toMatch(/^Nothing pasted into Q: it is computed from the matrices before it\. Paste into an editable matrix/);
    expect(problems).toEqual([]);
  });

  it('on a zh-CN page the notice is written with Chinese punctuation, the resized matrices listed with 、, and the origin line says whose numbers they are', async () => {
    const { page, problems } = await site.open('?preset=seed-004&lang=zh-CN', { permissions: ['clipboard-read', 'clipboard-write'] });
    await pasteOnto(page, 'x', PASTED.x);
    const text = await notice(page);
    expect(text).toMatch(/d_in 现为 4（原为 2）：W\^Q、W\^K、W\^V 已随之调整大小，/);
    expect(text.match(/[\u4e00-\u9fff][,:;()]|[,:;()][\u4e00-\u9fff]/), text).toBeNull();
    expect(await page.locator('.intro-origin').textContent()).toMatch(/^你自己的数字，以预设“.+”为起点。$/);
    expect(problems).toEqual([]);
  });
});

describe('typing numbers', () => {
  it('a digit typed on a focused cell starts editing it; Enter moves down, Tab right with wrapping, Shift back, Escape cancels', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    await cell(page, 'x', 0, 0).focus();
    // Down the first column: 5, 6, then a full-width 7 and a fraction; Enter wraps to the top of column 2.
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await page.keyboard.type('6');
    await page.keyboard.press('Enter');
    await page.keyboard.type('-1/2');
    await page.keyboard.press('Enter');
    await settle(page);
    expect(await page.evaluate(() => [document.activeElement.dataset.row, document.activeElement.dataset.col])).toEqual(['0', '1']);
    // Tab along a row wraps to the next row; Shift+Tab comes back.
    // A full-width 7, as a Chinese input method commits it into the field Enter opened.
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('７');
    await page.keyboard.press('Tab');
    await settle(page);
    expect(await page.evaluate(() => [document.activeElement.dataset.row, document.activeElement.dataset.col])).toEqual(['1', '0']);
    await page.keyboard.type('9');
    await page.keyboard.press('Shift+Tab');
    await settle(page);
    expect(await page.evaluate(() => [document.activeElement.dataset.row, document.activeElement.dataset.col])).toEqual(['0', '1']);
    // Escape cancels: the value stays, focus stays on the cell (visible focus ring on it).
    await page.keyboard.type('3');
    await page.keyboard.press('Escape');
    await settle(page);
    expect((await stageValues(page, 'x'))[0]).toEqual([
      [5, 7],
      [9, 1],
      [-0.5, 1],
    ]);
    expect(await page.evaluate(() => document.activeElement.matches('svg[data-stage="x"] [role="gridcell"][data-row="0"][data-col="1"]'))).toBe(true);
    expect(await page.locator('.cell-editor').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
