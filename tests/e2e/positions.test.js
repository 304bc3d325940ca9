// Issue 12's positions in the explorer: the window, ALiBi and RoPE controls, the ALiBi bias and
// rotation stages, and the "sliding window", "ALiBi" and "rotary" presets, each checked against
// the float64 reference (tests/reference), which writes the window, the bias and the rotation out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alibiBias, alibiSlopesPow2, rotate, selfAttention } from '../reference/matrices.js';
import { startSite } from '../support/site.js';
import { settle, stageValues, worstDifference } from '../support/figures.js';
import { SEED_004 } from '../support/seed-004.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

// float32 storage of a handful of sums and exps of numbers below 10: far below 1e-6.
const FLOAT32 = 1e-6;
// RoPE adds float32 cos and sin (each within ~1e-7 of the float64 ones) of angles up to 3 rad.
const ROTATED = 2e-6;
const I2 = [
  [1, 0],
  [0, 1],
];
/** The ALiBi preset's X and weights (web/model/presets/alibi.js), written out again. */
const ALIBI_PRESET = {
  source: 'self',
  x: [
    [1, 0],
    [0, 1],
    [1, 1],
    [0.5, -1],
    [2, 1],
  ],
  wq: [
    I2,
    [
      [0.5, 0],
      [0, 0.5],
    ],
  ],
  wk: [
    I2,
    [
      [1, 1],
      [0, 1],
    ],
  ],
  wv: [
    I2,
    [
      [1, 0],
      [1, 1],
    ],
  ],
};
const I4 = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];

/** The page's URL state, decoded in the page. */
const pageState = (page) => page.evaluate(() => window.attentionLab.store.get());

/** Resolves once the state in the page's address bar has `key` equal to `value`. */
const hashCatchesUp = (page, key, value) =>
  page.waitForFunction(
    ([k, v]) => {
      const code = window.location.hash.replace(/^#s=/, '').replace(/-/g, '+').replace(/_/g, '/');
      try {
        return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(code), (c) => c.charCodeAt(0))))[k] === v;
      } catch {
        return false;
      }
    },
    [key, value],
  );

/** A '#s=' hash of a raw state (the page conforms it). */
const hashOf = (state) => `#s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`;

describe('positions', () => {
  it('the sliding-window preset shows window [2, 0]: each token weighs only itself and the 2 before it', async () => {
    const { page, problems } = await site.open('?preset=sliding-window');
    const x = [
      [1, 0],
      [0, 1],
      [1, 1],
      [2, 0],
      [1, 0],
      [0, 2],
    ];
    const exact = selfAttention({ x, wq: I2, wk: I2, wv: I2 }, { window: [2, 0] });
    const weights = (await stageValues(page, 'weights'))[0];
    expect(worstDifference(weights, exact.weights).diff).toBeLessThan(FLOAT32);
    expect(worstDifference((await stageValues(page, 'output'))[0], exact.output).diff).toBeLessThan(4 * FLOAT32);
    // A band of width 3: exactly zero before i - 2 and after i.
    weights.forEach((row, i) => row.forEach((p, j) => expect(p > 0, `(${i}, ${j})`).toBe(j >= i - 2 && j <= i)));
    expect((await pageState(page)).window).toEqual([2, 0]);
    await page.locator('svg[data-stage="masked"] .cell[data-row="4"][data-col="0"]').focus();
    await expect.poll(() => page.locator('.explain-card').textContent()).toContain('window [2, 0]: key 1 is more than 2 before query 5');
    expect(problems).toEqual([]);
  });

  it('the ALiBi preset shows each head’s bias -m |i - j| with the paper’s slopes 1/16 and 1/256, and its weights', async () => {
    const raw = ALIBI_PRESET;
    const slopes = alibiSlopesPow2(2);
    expect(slopes).toEqual([1 / 16, 1 / 256]);
    for (const head of [0, 1]) {
      const { page, problems } = await site.open(
        head === 0 ? '?preset=alibi' : `?preset=alibi${hashOf({ ...raw, scoring: 'scaled-dot', causal: 'top-left', alibi: 'paper', head })}`,
      );
      const exact = selfAttention({ x: raw.x, wq: raw.wq[head], wk: raw.wk[head], wv: raw.wv[head] }, { causal: 'top-left', slope: slopes[head] });
      // The bias is a slope times a small integer: exact in float32.
      expect((await stageValues(page, 'alibi'))[0], `head ${head}`).toEqual(alibiBias(5, 5, slopes[head]).map((row) => row.map((b) => b + 0)));
      expect(worstDifference((await stageValues(page, 'weights'))[0], exact.weights).diff, `head ${head}`).toBeLessThan(FLOAT32);
      expect(worstDifference((await stageValues(page, 'output'))[0], exact.output).diff, `head ${head}`).toBeLessThan(4 * FLOAT32);
      // Z = S̃ + B where visible: the masked stage holds the biased scores.
      const scaled = (await stageValues(page, 'scaled'))[0];
      expect((await stageValues(page, 'masked'))[0][4][0]).toBeCloseTo(scaled[4][0] - 4 * slopes[head], 6);
      await page.locator('svg[data-stage="masked"] .cell[data-row="4"][data-col="0"]').focus();
      await expect.poll(() => page.locator('.explain-card').textContent()).toContain('Visible: the scaled score passes with its ALiBi bias');
      expect(problems).toEqual([]);
    }
  });

  it('the rotary preset shows Q and K before and after the rotation, the angle of a pair on focus, and the weights', async () => {
    const { page, problems } = await site.open('?preset=rotary');
    const x = [
      [1, 0, 0.5, 0],
      [0, 1, 0, 0.5],
      [1, 0, 0.5, 0],
      [0, 1, 0, 0.5],
    ];
    const rope = { base: 100, interleaved: false };
    const exact = selfAttention({ x, wq: I4, wk: I4, wv: I4, rope }, { causal: 'top-left' });
    expect((await stageValues(page, 'rope', { part: 'q' }))[0]).toEqual(x);
    expect(worstDifference((await stageValues(page, 'rope', { part: 'q-rotated' }))[0], rotate(x, rope)).diff).toBeLessThan(ROTATED);
    expect(worstDifference((await stageValues(page, 'rope', { part: 'k-rotated' }))[0], exact.k).diff).toBeLessThan(ROTATED);
    // The Q stage keeps the projection X Wq; the scores use the rotated Q and K.
    expect((await stageValues(page, 'q'))[0]).toEqual(x);
    expect(worstDifference((await stageValues(page, 'scores'))[0], exact.scores).diff).toBeLessThan(4 * ROTATED);
    expect(worstDifference((await stageValues(page, 'weights'))[0], exact.weights).diff).toBeLessThan(4 * ROTATED);
    expect(worstDifference((await stageValues(page, 'output'))[0], exact.output).diff).toBeLessThan(4 * ROTATED);
    // Row 3 (position 2), feature 4: pair 2 (features 2 and 4) at angle 2 * 100^(-1/2) = 0.2.
    await page.locator('svg[data-stage="rope"][data-part="q-rotated"] .cell[data-row="2"][data-col="3"]').focus();
    await expect.poll(() => page.locator('.explain-card').textContent()).toContain('pair 2 (features 2 and 4), angle 0.2 rad');
    expect(problems).toEqual([]);
  });

  it('the window, ALiBi and RoPE controls change the numbers, and a copied URL restores them', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const seed = SEED_004;
    await page.getByRole('button', { name: 'more Window left' }).click(); // -1 -> 0
    await page.getByRole('button', { name: 'more Window left' }).click(); // 0 -> 1
    await page.getByRole('radio', { name: 'paper slopes' }).click();
    await page.getByRole('radio', { name: 'interleaved' }).click();
    await page.getByRole('spinbutton', { name: 'RoPE base' }).fill('10');
    await page.getByRole('spinbutton', { name: 'RoPE base' }).press('Enter');
    await settle(page);
    const state = await pageState(page);
    expect([state.window, state.alibi, state.rope, state.ropeBase]).toEqual([[1, -1], 'paper', 'interleaved', 10]);
    // One head: ALiBi's paper slope for H = 1 is 2^-8.
    const exact = selfAttention({ ...seed, rope: { base: 10, interleaved: true } }, { window: [1, -1], slope: 2 ** -8 });
    const weights = (await stageValues(page, 'weights'))[0];
    expect(worstDifference(weights, exact.weights).diff).toBeLessThan(4 * ROTATED);
    expect(weights[2][0]).toBe(0); // key 1 is 2 before query 3: outside the window
    expect(worstDifference((await stageValues(page, 'alibi'))[0], alibiBias(3, 3, 2 ** -8)).diff).toBe(0);
    // The address bar follows the state within 250 ms (app.js throttles replaceState).
    await hashCatchesUp(page, 'ropeBase', 10);
    const copy = await site.open(`?preset=seed-004${await page.evaluate(() => window.location.hash)}`);
    expect(await pageState(copy.page)).toEqual(state);
    expect((await stageValues(copy.page, 'weights'))[0]).toEqual(weights);
    expect([...problems, ...copy.problems]).toEqual([]);
  });

  it('slopes given in the link: each head uses its own, the ALiBi control says "custom", and off or paper replace them', async () => {
    const raw = { ...ALIBI_PRESET, scoring: 'scaled-dot', causal: 'top-left', alibi: [0.5, 0.25] }; // not the paper's 1/16 and 1/256
    const custom = () => page.getByRole('radio', { name: 'custom (from the link)' });
    const formula = (id) => page.locator(`article[data-card="${id}"] .stage-formula annotation`).textContent();
    const { page, problems } = await site.open(`?preset=alibi${hashOf(raw)}`);
    expect((await pageState(page)).alibi).toEqual([0.5, 0.25]);
    await expect.poll(() => custom().getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('radio', { name: 'paper slopes' }).getAttribute('aria-checked')).toBe('false');
    expect(await formula('alibi')).toContain('m_h\\ \\text{given}');
    expect(await formula('masked')).toContain('+ B +');
    for (const [head, slope] of [
      [0, 0.5],
      [1, 0.25],
    ]) {
      if (head === 1) {
        await page.getByRole('tab', { name: 'head 1' }).click();
        await settle(page);
      }
      const exact = selfAttention({ x: raw.x, wq: raw.wq[head], wk: raw.wk[head], wv: raw.wv[head] }, { causal: 'top-left', slope });
      expect((await stageValues(page, 'alibi', { head }))[0], `head ${head}`).toEqual(alibiBias(5, 5, slope).map((row) => row.map((b) => b + 0)));
      expect(worstDifference((await stageValues(page, 'weights', { head }))[0], exact.weights).diff, `head ${head}`).toBeLessThan(FLOAT32);
    }
    // The copied link restores the slopes exactly, once the address bar has caught up (app.js
    // throttles replaceState to 250 ms) with the head tab.
    await hashCatchesUp(page, 'head', 1);
    const copy = await site.open(`?preset=alibi${await page.evaluate(() => window.location.hash)}`);
    expect(await pageState(copy.page)).toEqual(await pageState(page));
    // Picking the paper's slopes replaces the list; the custom choice goes away.
    await page.getByRole('radio', { name: 'paper slopes' }).click();
    await settle(page);
    expect((await pageState(page)).alibi).toBe('paper');
    expect(await custom().count()).toBe(0); // hidden: not in the accessibility tree
    expect(await formula('alibi')).toContain('m_h = 2^{-8(h+1)/H}');
    // The arrow keys skip the hidden choice: right of 'paper slopes' wraps round to 'off'.
    await page.getByRole('radio', { name: 'paper slopes' }).press('ArrowRight');
    await settle(page);
    expect((await pageState(page)).alibi).toBe('off');
    expect(await page.evaluate(() => document.activeElement.textContent)).toBe('off');
    expect([...problems, ...copy.problems]).toEqual([]);
  });

  it('the KV heads control makes the heads share K and V: head 1 attends with kv head 0’s keys and values', async () => {
    const { page, problems } = await site.open('?preset=sentence');
    expect((await pageState(page)).kvHeads).toBe(2);
    await page.getByRole('combobox', { name: 'KV heads' }).selectOption('1');
    await settle(page);
    const state = await pageState(page);
    expect(state.kvHeads).toBe(1);
    await page.getByRole('tab', { name: 'head 1' }).click();
    await settle(page);
    // Head 1 (the second; heads count from 0) keeps its own Wq and takes head 0's Wk and Wv (the state copies them into head 1).
    expect(state.wk[1]).toEqual(state.wk[0]);
    const exact = selfAttention({ x: state.x, wq: state.wq[1], wk: state.wk[0], wv: state.wv[0] }, { causal: 'top-left' }); // the preset's mask
    expect(worstDifference((await stageValues(page, 'k', { head: 1 }))[0], exact.k).diff).toBeLessThan(4 * FLOAT32);
    expect(worstDifference((await stageValues(page, 'weights', { head: 1 }))[0], exact.weights).diff).toBeLessThan(4 * FLOAT32);
    expect(await page.locator('.stage-caption', { hasText: 'Shared by heads 0–1 (kv head 0; 1 in all).' }).count()).toBe(2); // K and V
    expect(problems).toEqual([]);
  });
});
