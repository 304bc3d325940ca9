// The Generate stepper and the layer's output on the "decode with a cache" preset: each step's new
// row of weights and output row against a float64 reference of the full forward (reference.js,
// RoPE and the causal mask written out), the heads through W^O, a compared scoring's gradient, and
// the stepper's buttons, keyboard, live region and reduced motion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attention, halfSquaredError, matmul, numericGradient, selfAttention } from '../reference/matrices.js';
import { axeViolations, blocking } from '../support/axe.js';
import { settle, stageValues, worstDifference } from '../support/figures.js';
import { startSite } from '../support/site.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

// float32 projections, rotations (cos and sin within ~1e-7), exps and sums of numbers below ~5
// against float64: a few 1e-7; 1e-6 is the bound the issue asks for.
const TOLERANCE = 1e-6;

const pageState = (page) => page.evaluate(() => window.attentionLab.store.get());

/** The float64 layer of the page's state (scaled-dot, causal): every head and the output through W^O. */
function layer(state, scoring = 'scaled-dot') {
  const rope = { base: state.ropeBase, interleaved: state.rope === 'interleaved' };
  const heads = state.wq.map((wq, h) =>
    selfAttention(
      { x: state.x, wq, wk: state.wk[h], wv: state.wv[h], rope },
      { causal: 'top-left', scale: scoring === 'dot' ? 1 : 1 / Math.sqrt(wq[0].length) },
    ),
  );
  const concat = state.x.map((_, t) => heads.flatMap((r) => r.output[t]));
  return { heads, concat, output: matmul(concat, state.wo) };
}

const generate = (page) => page.locator('[data-panel="generate"]');

describe('generate', () => {
  it('?preset=decode opens on the Generate panel, and each step’s new row equals the float64 full forward’s row', async () => {
    const { page, problems } = await site.open('?preset=decode');
    const state = await pageState(page);
    expect([state.preset, state.heads, state.kvHeads, state.rope, state.causal]).toEqual(['decode', 2, 1, 'halves', 'bottom-right']);
    await expect.poll(() => generate(page).evaluate((el) => Math.abs(el.getBoundingClientRect().top) < 200), { timeout: 5000 }).toBe(true);
    const exact = layer(state);
    // Keyboard only: focus Step and press Enter, one token at a time.
    const step = page.getByRole('button', { name: 'Step: feed the next token' });
    await step.focus();
    for (let t = 0; t < state.tokens.length; t++) {
      await page.keyboard.press('Enter');
      await settle(page);
      const weights = (await stageValues(page, 'generate-weights'))[0];
      expect(weights[0].length, `step ${t + 1}: one weight per cached token`).toBe(t + 1);
      const expected = exact.heads[0].weights[t].slice(0, t + 1);
      const worst = worstDifference(weights[0], expected);
      expect(worst.diff, `step ${t + 1}, weight ${worst.at}: page ${worst.actual}, float64 ${worst.expected}`).toBeLessThan(TOLERANCE);
      expect(worstDifference((await stageValues(page, 'generate-output'))[0][0], exact.output[t]).diff).toBeLessThan(TOLERANCE);
      // The cache grows by one row of K and V per step.
      expect((await stageValues(page, 'generate-k'))[0].length).toBe(t + 1);
      expect((await stageValues(page, 'generate-v'))[0].length).toBe(t + 1);
      await expect.poll(() => page.locator('#announcer').textContent()).toContain(`Step ${t + 1} of 5`);
      expect(await generate(page).locator('[data-check="weights"]').textContent()).toMatch(new RegExp(`Row ${t + 1} of P equals the full forward’s to`));
    }
    expect(await step.isDisabled()).toBe(true);
    // axe-core on the panel with every matrix drawn (the accessibility suite sees it empty).
    expect(blocking(await axeViolations(page)).map((v) => v.id)).toEqual([]);
    await page.getByRole('button', { name: 'Reset: empty the cache' }).click();
    await settle(page);
    expect(await generate(page).locator('.generate-status').textContent()).toContain('Step 0 of 5');
    expect(problems).toEqual([]);
  });

  it('the heads through W^O equal the float64 layer, and head 2’s K cache is the shared kv head’s', async () => {
    const { page, problems } = await site.open('?preset=decode');
    const state = await pageState(page);
    const exact = layer(state);
    const worst = worstDifference((await stageValues(page, 'projected-output'))[0], exact.output);
    expect(worst.diff, `Y at ${worst.at}: page ${worst.actual}, float64 ${worst.expected}`).toBeLessThan(TOLERANCE);
    expect(worstDifference((await stageValues(page, 'concat-output'))[0], exact.concat).diff).toBeLessThan(TOLERANCE);
    // W^O as typed, stored as float32.
    expect(
      worstDifference(
        (await stageValues(page, 'wo'))[0],
        state.wo.map((row) => row.map(Math.fround)),
      ).diff,
    ).toBe(0);
    // W^O is an input like the others: typing a number recomputes Y (and the link holds it).
    await page.locator('svg[data-stage="wo"] .cell[data-row="0"][data-col="0"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('.cell-editor').fill('2.5');
    await page.keyboard.press('Enter');
    await settle(page);
    const edited = await pageState(page);
    expect(edited.wo[0][0]).toBe(2.5);
    expect(worstDifference((await stageValues(page, 'projected-output'))[0], layer(edited).output).diff).toBeLessThan(TOLERANCE);
    // Head 2 (one kv head for both): its cache holds the same K rows as head 1's.
    await page.evaluate(() => window.attentionLab.store.update({ head: 1 }));
    await settle(page);
    await page.getByRole('button', { name: 'Step: feed the next token' }).click();
    await page.getByRole('button', { name: 'Step: feed the next token' }).click();
    await settle(page);
    expect(worstDifference((await stageValues(page, 'generate-k'))[0], exact.heads[1].k.slice(0, 2)).diff).toBeLessThan(TOLERANCE);
    expect(worstDifference((await stageValues(page, 'generate-weights'))[0][0], exact.heads[1].weights[1].slice(0, 2)).diff).toBeLessThan(TOLERANCE);
    expect(problems).toEqual([]);
  });

  it('a compared scoring gets its own gradient cards: dQ of head 1 under dot is the finite difference of its loss', async () => {
    const { page, problems } = await site.open('?preset=decode');
    await page.getByRole('group', { name: 'Scorings computed side by side' }).getByRole('button', { name: 'dot', exact: true }).click();
    await settle(page);
    const state = await pageState(page);
    expect(state.compare).toEqual(['dot']);
    const dot = layer(state, 'dot');
    const { q, k, v } = dot.heads[0];
    // L of the layer under dot with head 1's (rotated) Q as the leaf; head 2 fixed.
    const lossOf = (qq) => {
      const o1 = attention(qq, k, v, { causal: 'top-left', scale: 1 }).output;
      const concat = o1.map((row, t) => [...row, ...dot.heads[1].output[t]]);
      return halfSquaredError(matmul(concat, state.wo), state.backward.target[0]);
    };
    const expected = numericGradient(lossOf, q);
    const shown = (await stageValues(page, 'dq', { run: 1 }))[0];
    const worst = worstDifference(shown, expected);
    // float32 gradients of entries below ~5 against float64 central differences (step 1e-6).
    expect(worst.diff, `dQ (dot) at ${worst.at}: page ${worst.actual}, float64 ${worst.expected}`).toBeLessThan(
      2e-5 * Math.max(1, ...expected.flat().map(Math.abs)),
    );
    expect(await page.locator('svg[data-stage="dq"][data-run="1"]').getAttribute('data-scoring')).toBe('dot');
    // Different numbers from the first scoring's card.
    expect(worstDifference((await stageValues(page, 'dq', { run: 0 }))[0], shown).diff).toBeGreaterThan(1e-3);
    expect(problems).toEqual([]);
  });

  it('Play feeds tokens on a timer and Pause stops it; with reduced motion Play goes straight to the end', async () => {
    const { page, problems } = await site.open('?preset=decode');
    const play = generate(page).locator('.generate-play');
    await play.click();
    await expect.poll(() => page.locator('svg[data-stage="generate-weights"]').getAttribute('data-step'), { timeout: 5000 }).toBe('1');
    await play.click();
    expect(await play.getAttribute('aria-pressed')).toBe('false');
    const paused = await page.locator('svg[data-stage="generate-weights"]').getAttribute('data-step');
    await page.waitForTimeout(1200);
    expect(await page.locator('svg[data-stage="generate-weights"]').getAttribute('data-step')).toBe(paused);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByRole('button', { name: 'Reset: empty the cache' }).click();
    await play.click();
    await settle(page);
    expect(await generate(page).locator('.generate-status').textContent()).toContain('Step 5 of 5');
    expect(await play.getAttribute('aria-pressed')).toBe('false');
    expect(problems).toEqual([]);
  });

  it('an example of given Q, K, V says why Generate is off and disables its buttons', async () => {
    const { page, problems } = await site.open('?preset=d2l');
    const note = generate(page).locator('.generate-note');
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toMatch(/gives Q, K and V directly/);
    for (const name of ['Play', 'Step: feed the next token', 'Reset: empty the cache']) {
      expect(await generate(page).getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    expect(problems).toEqual([]);
  });

  it('one SGD step moves every head’s weights and W^O', async () => {
    const { page, problems } = await site.open('?preset=decode');
    const before = await pageState(page);
    await page.getByRole('button', { name: 'One SGD step' }).click();
    await settle(page);
    await settle(page);
    const after = await pageState(page);
    for (const key of ['wq', 'wk', 'wv']) for (let h = 0; h < 2; h++) expect(after[key][h], `${key} head ${h + 1}`).not.toEqual(before[key][h]);
    expect(after.wo).not.toEqual(before.wo);
    // The heads still share their one kv head.
    expect(after.wk[1]).toEqual(after.wk[0]);
    expect(problems).toEqual([]);
  });
});
