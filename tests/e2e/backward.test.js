// The backward stages on seed-004 are the true gradients of the loss (central finite differences
// of a float64 reference, and the API's own selfAttention.backward() in Node), and Train lowers
// the loss.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAttention } from '../../web/src/index.js';
import { attention, halfSquaredError, matmul, numericGradient, selfAttention, softmaxBackward, transpose } from '../reference/matrices.js';
import { startSite } from '../support/site.js';
import { BACKWARD_STAGES, settle, stageValues, worstDifference } from '../support/figures.js';

let site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The page's matrices of the given stages (first batch), by name. */
async function read(page, stages) {
  return Object.fromEntries(await Promise.all(stages.map(async (s) => [s, (await stageValues(page, s))[0]])));
}

// float32 forward and backward of values up to ~30 (dW^V), against float64: a few float32 ulps
// of the largest entry (6e-8 relative each), with room for the sums of the backward.
const tolerance = (expected) => 4e-6 * Math.max(1, ...expected.flat().map(Math.abs));

function expectClose(actual, expected, what) {
  const worst = worstDifference(actual, expected);
  expect(worst.diff, `${what} at ${worst.at}: page ${worst.actual}, expected ${worst.expected}`).toBeLessThanOrEqual(tolerance(expected));
}

describe('backward', () => {
  it('the backward stages match finite differences and the API on seed-004', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const m = await read(page, ['x', 'wq', 'wk', 'wv', 'q', 'k', 'v', 'weights', 'output', ...BACKWARD_STAGES]);
    const y = m.target;
    expect(y).toEqual([
      [3, 2],
      [1, 1],
      [4, 1],
    ]);
    // L = 1/2 sum (O - Y)^2, so dL/dO = O - Y.
    expectClose(
      m['d-output'],
      m.output.map((row, i) => row.map((o, c) => o - y[i][c])),
      'dO',
    );
    // The intermediates, from the formulas of docs/semantics.md in float64.
    const dP = matmul(m['d-output'], transpose(m.v));
    expectClose(m['d-weights'], dP, 'dP');
    expectClose(m['d-scores'], softmaxBackward(m.weights, dP), 'dS');
    // dQ, dK, dV: finite differences of the loss through attention, Q, K, V as the leaves.
    const lossOf = (q, k, v) => halfSquaredError(attention(q, k, v).output, y);
    expectClose(
      m.dq,
      numericGradient((q) => lossOf(q, m.k, m.v), m.q),
      'dQ',
    );
    expectClose(
      m.dk,
      numericGradient((k) => lossOf(m.q, k, m.v), m.k),
      'dK',
    );
    expectClose(
      m.dv,
      numericGradient((v) => lossOf(m.q, m.k, v), m.v),
      'dV',
    );
    // dW: finite differences of the loss of the whole layer in each weight matrix.
    const weights = { x: m.x, wq: m.wq, wk: m.wk, wv: m.wv };
    for (const name of ['wq', 'wk', 'wv']) {
      const grad = numericGradient((w) => halfSquaredError(selfAttention({ ...weights, [name]: w }).output, y), m[name]);
      expectClose(m[`d${name}`], grad, `d${name}`);
    }
    // The API in Node, a layer with the same weights: the same dW.
    const attn = await loadAttention();
    const layer = attn.selfAttention({ wq: m.wq, wk: m.wk, wv: m.wv });
    layer.forward(m.x);
    const api = layer.backward(m['d-output']);
    for (const name of ['dwq', 'dwk', 'dwv']) {
      const rows = Array.from({ length: m[name].length }, (_, i) => Array.from(api[name].data.slice(i * 2, i * 2 + 2)));
      expectClose(m[name], rows, `${name} vs selfAttention.backward()`);
    }
    // The page's own cross-checks agree too.
    for (const stage of ['dq', 'dk', 'dv', 'dwq', 'dwk', 'dwv']) {
      expect(await page.locator(`[data-card="${stage}"] .stage-caption`).textContent(), stage).toMatch(/Checked: .* gives the same numbers/);
    }
    expect(problems).toEqual([]);
  });

  it('training lowers the loss, and Reset brings the weights back', async () => {
    const { page, problems } = await site.open('?preset=seed-004');
    const lossOnPage = async () => {
      const { output, target } = await read(page, ['output', 'target']);
      return halfSquaredError(output, target);
    };
    const before = await lossOnPage();
    await page.getByRole('button', { name: 'Train', exact: true }).click();
    await page.waitForFunction(() => Number(document.querySelector('svg[data-stage="loss-curve"]')?.dataset.count) > 30, null, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await settle(page);
    const after = await lossOnPage();
    // SGD at the preset's rate takes seed 004 from L = 3.99 to about 0.3 in 30 steps.
    expect(after).toBeLessThan(before / 4);
    const curve = page.locator('svg[data-stage="loss-curve"]');
    expect(Math.abs(Number(await curve.getAttribute('data-last')) - after)).toBeLessThan(1e-5 * before);
    expect((await stageValues(page, 'wq'))[0]).not.toEqual([
      [1, 0],
      [0, 1],
    ]);
    await page.getByRole('button', { name: 'Reset the trained weights' }).click();
    await settle(page);
    expect((await stageValues(page, 'wq'))[0]).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(await lossOnPage()).toBe(before);
    expect(problems).toEqual([]);
  });
});
