// The figure functions (attention-lab/figures) in real Chromium, from the raw sources: the nodes
// they return keep the explorer's contract (svg[data-stage], cells data-row/data-col/data-value
// with String(float32)), take nested arrays, and say what is wrong with bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfAttention } from '../reference/matrices.js';
import { startPages } from '../support/pages.js';
import { BACKWARD_STAGES, worstDifference } from '../support/figures.js';
import { SEED_004 } from '../support/seed-004.js';

const FLOAT32 = 1e-6; // float32 storage of a handful of sums and exps of numbers below 10

let pages;
let page;
let problems;

beforeAll(async () => {
  pages = await startPages();
  await pages.write(
    'figures.html',
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <link rel="stylesheet" href="./web/figures/figures.css"></head><body>
    <script type="module">
      import * as figures from './web/figures/index.js';
      import { loadAttention } from './web/src/index.js';
      window.figures = figures;
      window.attn = await loadAttention();
      window.ready = true;
    </script></body></html>`,
  );
  ({ page, problems } = await pages.open('figures.html', { wait: false }));
  await page.waitForFunction(() => window.ready);
});
afterAll(async () => {
  await pages?.close();
});

/** Every cell of the figures in a node (or a Promise of one): [{ stage, head, run, batch, row, col, value }]. */
function cellsOf(expression) {
  return page.evaluate(async (code) => {
    const node = await new Function('figures', 'attn', `return ${code}`)(window.figures, window.attn);
    document.body.replaceChildren(node);
    return [...node.querySelectorAll('[data-value]')].map((cell) => {
      const svg = cell.closest('svg[data-stage]');
      return {
        stage: svg.dataset.stage,
        head: svg.dataset.head,
        run: svg.dataset.run,
        batch: cell.dataset.batch,
        row: cell.dataset.row,
        col: cell.dataset.col,
        value: cell.dataset.value,
      };
    });
  }, expression);
}

/** The values of one stage as a (rows, cols) nested array, first batch. */
function grid(cells, stage) {
  const out = [];
  for (const c of cells.filter((x) => x.stage === stage && (x.batch ?? '0') === '0')) (out[Number(c.row)] ??= [])[Number(c.col)] = Number(c.value);
  return out;
}

describe('attention-lab/figures', () => {
  it('heatmap(nested arrays) tags each cell with its row, column and the String of its float32 value', async () => {
    const cells = await cellsOf("figures.heatmap([[0.1, 0.9], [0.7, 0.3]], { rowLabels: ['a', 'b'], colLabels: ['c', 'd'] })");
    expect(cells.map((c) => [c.stage, c.row, c.col, c.value])).toEqual([
      ['weights', '0', '0', String(Math.fround(0.1))],
      ['weights', '0', '1', String(Math.fround(0.9))],
      ['weights', '1', '0', String(Math.fround(0.7))],
      ['weights', '1', '1', String(Math.fround(0.3))],
    ]);
  });

  it('matrix() and links() keep the same contract for a given stage name', async () => {
    const matrixCells = await cellsOf("figures.matrix({ data: [1, -2, 3, 4, 5, 6], shape: [2, 3] }, { stage: 'q' })");
    expect(matrixCells.map((c) => `${c.stage} ${c.row},${c.col} ${c.value}`)).toEqual(['q 0,0 1', 'q 0,1 -2', 'q 0,2 3', 'q 1,0 4', 'q 1,1 5', 'q 1,2 6']);
    const linkCells = await cellsOf("figures.links([[0.25, 0.75]], { rowLabels: ['x'], colLabels: ['a', 'b'] })");
    expect(linkCells.map((c) => `${c.stage} ${c.row},${c.col} ${c.value}`)).toEqual(['weights 0,0 0.25', 'weights 0,1 0.75']);
  });

  it('pipeline({ attn, preset: "seed-004" }) draws the forward pass with the float64 reference\'s numbers', async () => {
    const cells = await cellsOf("figures.pipeline({ attn, preset: 'seed-004' })");
    expect([...new Set(cells.map((c) => c.stage))]).toEqual(['x', 'wq', 'wk', 'wv', 'q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output']);
    const exact = selfAttention(SEED_004);
    for (const stage of ['q', 'k', 'v', 'scores', 'scaled', 'weights', 'output']) {
      expect(worstDifference(grid(cells, stage), exact[stage]).diff, stage).toBeLessThan(4 * FLOAT32);
    }
    expect(cells.every((c) => c.head === '0' && c.run === '0')).toBe(true);
  });

  it('pipeline() with data, stages, causal and backward shows just those stages, in pipeline order', async () => {
    const cells = await cellsOf(
      `figures.pipeline({ attn, data: ${JSON.stringify({ x: SEED_004.x, wq: [SEED_004.wq], wk: [SEED_004.wk], wv: [SEED_004.wv] })}, stages: ['output', 'weights'], causal: true, backward: true })`,
    );
    expect([...new Set(cells.map((c) => c.stage))]).toEqual(['weights', 'output', ...BACKWARD_STAGES]);
    expect(worstDifference(grid(cells, 'weights'), selfAttention(SEED_004, { causal: 'top-left' }).weights).diff).toBeLessThan(FLOAT32);
  });

  it("pipeline() in the heatmap view draws each compared scoring's weights, and stageIds() resolves to every stage id", async () => {
    // d2l compares additive with dot-product attention: one heatmap per run, with d2l's valid
    // lengths (2 and 6 of 10 keys) leaving the other keys at weight 0.
    const cells = await cellsOf("figures.pipeline({ attn, preset: 'd2l', view: 'heatmap' })");
    expect([...new Set(cells.map((c) => `${c.stage} ${c.head} ${c.run}`))]).toEqual(['weights 0 0', 'weights 0 1']);
    const hidden = cells.filter((c) => (c.batch ?? '0') === '0' && Number(c.col) >= 2);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.every((c) => c.value === '0')).toBe(true);
    const ids = await page.evaluate(() => window.figures.stageIds());
    expect(ids.slice(0, 4)).toEqual(['x', 'wq', 'wk', 'wv']);
    expect(ids.slice(-4)).toEqual(['dwq', 'dwk', 'dwv', 'dwo']);
  });

  it('pipeline() rejects and heatmap() throws errors that name the bad field', async () => {
    const message = (code) =>
      page.evaluate(async (c) => {
        try {
          await new Function('figures', 'attn', `return ${c}`)(window.figures, window.attn);
          return 'no error';
        } catch (error) {
          return `${error.name}: ${error.message}`;
        }
      }, code);
    expect(await message("figures.pipeline({ preset: 'seed-004' })")).toMatch(/TypeError: pipeline: spec\.attn must be the module from loadAttention/);
    expect(await message("figures.pipeline({ attn, preset: 'seed-004', scoring: 'cosine' })")).toMatch(/TypeError: scoring must be one of 'dot'.*got "cosine"/);
    expect(await message("figures.pipeline({ attn, preset: 'seed-004', heads: 9 })")).toMatch(/RangeError: heads must be an integer in \[1, 6\], got 9/);
    expect(await message('figures.heatmap([[1, 2], [3]])')).toMatch(/RangeError: heatmap: weights/);
    expect(await message("figures.heatmap([[1]], { colorScale: 'viridis' })")).toMatch(/TypeError: heatmap: colorScale must be 'weights' or 'signed'/);
  });

  it('logged no console error', () => {
    expect(problems).toEqual([]);
  });
});
