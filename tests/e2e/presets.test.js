// The presets reproduce the seeds' worked examples exactly (docs/semantics.md), and no preset or view
// logs a console error or throws.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfAttention } from '../reference/matrices.js';
import { startSite } from '../support/site.js';
import { settle, stageValues, worstDifference } from '../support/figures.js';
import { SEED_004, SEED_004_QUOTED } from '../support/seed-004.js';
import { sharedPage } from '../support/browser.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

// float32 storage of a handful of sums and exps of numbers below 10: far below 1e-6.
const FLOAT32 = 1e-6;

describe('the seed-004 preset, one page for the checks that read it', () => {
  const opened = sharedPage(() => site.open('?preset=seed-004'));

  it('the seed-004 preset shows the exact weights and output', async () => {
    const { page, problems } = opened();
    const weights = (await stageValues(page, 'weights'))[0];
    const output = (await stageValues(page, 'output'))[0];
    // Printed to 4 (weights) and 3 (output) decimals: within half a unit of the last one.
    expect(worstDifference(weights, SEED_004_QUOTED.weights).diff).toBeLessThanOrEqual(0.00005);
    expect(worstDifference(output, SEED_004_QUOTED.output).diff).toBeLessThanOrEqual(0.0005);
    const exact = selfAttention(SEED_004);
    expect(worstDifference(weights, exact.weights).diff).toBeLessThan(FLOAT32);
    expect(worstDifference(output, exact.output).diff).toBeLessThan(4 * FLOAT32);
    expect(problems).toEqual([]);
  });

  it('the explorer computes with the SIMD build, not the relaxed default, in a browser that has relaxed SIMD', async () => {
    const { page, problems } = opened();
    // Chromium validates relaxed SIMD, so loadAttention() alone would take the relaxed build, whose
    // FMA changes the last bits from one CPU to another; the explorer's numbers must not.
    expect(await page.evaluate(() => window.attentionLab.attn.backend)).toBe('wasm-simd');
    expect(problems).toEqual([]);
  });
});

describe('presets', () => {
  it('the d2l preset shows [[2, 3, 4, 5]] and [[10, 11, 12, 13]] for additive and dot-product attention', async () => {
    const { page, problems } = await site.open('?preset=d2l');
    for (const run of [0, 1]) {
      const output = await stageValues(page, 'output', { run });
      // Identical keys: uniform weights over the first 2 and the first 6 values, exactly.
      expect(worstDifference(output, [[[2, 3, 4, 5]], [[10, 11, 12, 13]]]).diff, `run ${run}`).toBeLessThan(1e-5);
    }
    const scorings = await page.$$eval('svg[data-stage="output"]', (svgs) => svgs.map((s) => s.dataset.scoring));
    expect(scorings).toEqual(['additive', 'scaled-dot']);
    expect(problems).toEqual([]);
  });

  // The other presets (seed-004, seed-002, d2l, sentence, random, and decode) go through the same
  // views, and the same two checks, on the page accessibility.test.js opens for axe.
  it('no preset that accessibility.test.js leaves out logs a console error or throws, in any view', async () => {
    for (const preset of ['sliding-window', 'alibi', 'rotary']) {
      const { page, problems } = await site.open(`?preset=${preset}`);
      for (const view of ['Heatmap', 'Links', 'Matrix']) {
        await page.getByRole('radio', { name: view, exact: true }).click();
        await settle(page);
      }
      expect(await page.locator('svg[data-stage="dq"]').count(), preset).toBeGreaterThan(0);
      expect(problems, preset).toEqual([]);
    }
  });
});
