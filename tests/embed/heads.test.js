// The model view, heads(), and canvasHeatmap() in real Chromium from the raw sources, on the
// attentions of the induction model trained here (examples/induction, read with attention-lab/io):
// the grid's contract, exact values under the pointer, aggregates against float64 sums, enlarging,
// token selection. Their render times: render-times.test.js.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPages } from '../support/pages.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const AGGREGATE = 1e-6; // float32 sums of 4 weights in [0, 1] against float64

let pages;
let page;
let problems;

beforeAll(async () => {
  pages = await startPages({ links: { examples: EXAMPLES } });
  await pages.write(
    'heads.html',
    `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <link rel="stylesheet" href="./web/figures/figures.css"></head><body>
    <script type="module">
      import * as figures from './web/figures/index.js';
      import { readTensors } from './web/io/index.js';
      const bytes = new Uint8Array(await (await fetch('./examples/induction/attention.safetensors')).arrayBuffer());
      window.induction = await readTensors(bytes, { name: 'attention.safetensors' });
      window.figures = figures;
      window.ready = true;
    </script></body></html>`,
  );
  ({ page, problems } = await pages.open('heads.html', { wait: false, viewport: { width: 1400, height: 1000 } }));
  await page.waitForFunction(() => window.ready);
});
afterAll(async () => {
  await pages?.close();
});

/** Moves the pointer to weight (i, j) of the thumbnail `selector` and returns the readout's data. */
async function hover(selector, i, j, T) {
  const box = await page.locator(selector).boundingBox();
  await page.mouse.move(box.x + ((j + 0.5) / T) * box.width, box.y + ((i + 0.5) / T) * box.height);
  return page.evaluate(() => ({ ...document.querySelector('[data-role=readout]').dataset }));
}

describe('heads()', () => {
  it('draws a row per layer and a column per head of the induction model, as BertViz does, plus the mean and max columns and the mean row, counted from 0', async () => {
    const { grid, labels, names } = await page.evaluate(() => {
      const { attention } = window.induction.tensors;
      document.body.replaceChildren(window.figures.heads(attention, { rowLabels: window.induction.tokens }));
      return {
        grid: [...document.querySelectorAll('canvas[data-layer][data-head]')].map((c) => `${c.dataset.layer}/${c.dataset.head} ${c.width}x${c.height}`),
        labels: [...document.querySelectorAll('.attn-heads-grid .attn-axis')].map((d) => d.textContent),
        names: [...document.querySelectorAll('canvas[data-layer="1"]')].map((c) => c.title),
      };
    });
    const want = [];
    for (const l of ['0', '1', 'mean']) {
      for (const h of ['0', '1', '2', '3', 'mean', 'max']) want.push(`${l}/${h} 24x24`);
    }
    expect(grid).toEqual(want);
    // The header row (heads, then the aggregates), then each row's label: the same 0-based indices as data-layer and data-head.
    expect(labels).toEqual(['H0', 'H1', 'H2', 'H3', 'mean', 'max', 'L0', 'L1', 'mean']);
    expect(names).toEqual(['layer 1, head 0', 'layer 1, head 1', 'layer 1, head 2', 'layer 1, head 3', 'layer 1, mean over heads', 'layer 1, max over heads']);
    expect(problems).toEqual([]);
  });

  it('hovering a thumbnail shows the exact float32 weight, and the aggregates match float64 means and maxima', async () => {
    const { data } = await page.evaluate(() => ({ data: [...window.induction.tensors.attention.data] }));
    const T = 24;
    const at = (l, h, i, j) => data[((l * 4 + h) * T + i) * T + j];
    for (const [l, h, i, j] of [
      [1, 2, 15, 6],
      [0, 0, 5, 4],
      [1, 3, 23, 14],
    ]) {
      const got = await hover(`canvas[data-layer="${l}"][data-head="${h}"]`, i, j, T);
      expect(got).toMatchObject({ layer: String(l), head: String(h), row: String(i), col: String(j), value: String(at(l, h, i, j)) });
      // The words count from 0 too: the same layer, head, query and key as the data attributes.
      const words = await page.evaluate(() => document.querySelector('[data-role=readout]').textContent);
      expect(words).toMatch(new RegExp(`^layer ${l}, head ${h}: query .* \\(${i}\\) → key .* \\(${j}\\): `));
    }
    const i = 17;
    const j = 8;
    const heads = [0, 1, 2, 3];
    const mean = Number((await hover('canvas[data-layer="1"][data-head="mean"]', i, j, T)).value);
    expect(Math.abs(mean - heads.reduce((s, h) => s + at(1, h, i, j), 0) / 4)).toBeLessThan(AGGREGATE);
    const max = Number((await hover('canvas[data-layer="0"][data-head="max"]', i, j, T)).value);
    expect(max).toBe(Math.max(...heads.map((h) => at(0, h, i, j))));
    const overLayers = Number((await hover('canvas[data-layer="mean"][data-head="2"]', i, j, T)).value);
    expect(Math.abs(overLayers - (at(0, 2, i, j) + at(1, 2, i, j)) / 2)).toBeLessThan(AGGREGATE);
  });

  it("each thumbnail pixel (j, i) is weight (i, j) on figures.css's scale: color-mix(in oklab, #4338ca t·85%, white)", async () => {
    const worst = await page.evaluate(() => {
      const canvas = document.querySelector('canvas[data-layer="1"][data-head="1"]');
      const pixels = canvas.getContext('2d').getImageData(0, 0, 24, 24).data;
      const data = window.induction.tensors.attention.data;
      const swatch = document.createElement('canvas').getContext('2d');
      let max = 0;
      for (let i = 0; i < 24; i++) {
        for (let j = 0; j < 24; j++) {
          swatch.fillStyle = `color-mix(in oklab, #4338ca ${data[((4 + 1) * 24 + i) * 24 + j] * 85}%, #ffffff)`;
          swatch.fillRect(0, 0, 1, 1);
          const want = swatch.getImageData(0, 0, 1, 1).data;
          for (let k = 0; k < 3; k++) max = Math.max(max, Math.abs(pixels[4 * (i * 24 + j) + k] - want[k]));
        }
      }
      return max;
    });
    // Bytes against the browser's own mix: t in 1/255 steps and rounding, at most 2 levels.
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('a click enlarges a head into SVG cells with the data-row/data-col/data-value contract', async () => {
    await page.click('canvas[data-layer="1"][data-head="0"]');
    const cells = await page.evaluate(() => {
      const detail = document.querySelector('[data-role=detail]');
      const svg = detail.querySelector('svg[data-stage="weights"]');
      return {
        layer: detail.dataset.layer,
        head: detail.dataset.head,
        pressed: document.querySelector('canvas[data-layer="1"][data-head="0"]').getAttribute('aria-pressed'),
        values: [...svg.querySelectorAll('[data-row][data-col]')].map((c) => [Number(c.dataset.row), Number(c.dataset.col), c.dataset.value]),
      };
    });
    const data = await page.evaluate(() => [...window.induction.tensors.attention.data]);
    expect([cells.layer, cells.head, cells.pressed]).toEqual(['1', '0', 'true']);
    expect(cells.values).toHaveLength(24 * 24);
    for (const [i, j, v] of cells.values) expect(v).toBe(String(data[((4 + 0) * 24 + i) * 24 + j]));
  });

  it('selecting tokens highlights their rows and columns and fades the rest', async () => {
    const pixel = (i, j) =>
      page.evaluate(([a, b]) => [...document.querySelector('canvas[data-layer="0"][data-head="0"]').getContext('2d').getImageData(b, a, 1, 1).data], [i, j]);
    const before = await pixel(20, 2);
    await page.click('[data-token="3"]');
    const state = await page.evaluate(() => ({
      selected: document.querySelector('[data-stage=heads]').dataset.selected,
      pressed: document.querySelector('[data-token="3"]').getAttribute('aria-pressed'),
    }));
    expect(state).toEqual({ selected: '3', pressed: 'true' });
    const faded = await pixel(20, 2);
    if (before[0] < 250) expect(faded[0]).toBeGreaterThan(before[0]); // off the selection: lighter
    const row3 = await page.evaluate(() => [...document.querySelectorAll('[data-role=detail] [data-row="3"]')].every((c) => c.classList.contains('selected')));
    expect(row3).toBe(true);
    await page.click('[data-token="3"]');
    expect(await pixel(20, 2)).toEqual(before);
  });

  it('refuses attentions of the wrong rank with a RangeError naming the shapes it takes', async () => {
    const message = await page.evaluate(() => {
      try {
        window.figures.heads([[0.5, 0.5]]);
      } catch (error) {
        return `${error.name}: ${error.message}`;
      }
      return 'no error';
    });
    expect(message).toBe('RangeError: heads: attentions must have shape (L, H, T, Tk), (H, T, Tk) or be a list of (1, H, T, Tk), got [1, 2]');
  });
});
