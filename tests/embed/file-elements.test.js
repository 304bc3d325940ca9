// The elements' file attributes in real Chromium from the raw sources: <attn-heatmap src tensor
// index> and <attn-heads src ...> on the induction model's files (examples/induction) and on
// the io fixtures' bad files; every loading failure names the attribute and the file.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSafetensors } from '../../web/io/index.js';
import { selfAttention } from '../reference/matrices.js';
import { elementsPage, rendered, startPages } from '../support/pages.js';
import { shadowStageValues, worstDifference } from '../support/figures.js';
import { SEED_004 } from '../support/seed-004.js';

const links = {
  examples: fileURLToPath(new URL('../../examples/', import.meta.url)),
  fixtures: fileURLToPath(new URL('../io/fixtures/', import.meta.url)),
};
const FILE = './examples/induction/attention';

let pages;
beforeAll(async () => {
  pages = await startPages({ links });
});
afterAll(async () => {
  await pages?.close();
});

// attention-lab/io in the page as window.io (an import() inside page.evaluate would be rewritten by Vite).
const IO = '<script type="module">import * as io from "./web/io/index.js"; window.io = io;</script>';

async function open(name, body) {
  await pages.write(name, elementsPage(body, { head: IO }));
  const opened = await pages.open(name);
  await opened.page.waitForFunction(() => window.io);
  return opened;
}

async function show(name, body) {
  const opened = await open(name, body);
  // Drawn (a figure in the shadow root) or failed (a status message).
  await opened.page.waitForFunction(() =>
    [...document.querySelectorAll('attn-heatmap, attn-heads, attn-figure')].every(
      (e) => e.shadowRoot.querySelector('[data-stage]') || e.shadowRoot.querySelector('.status')?.textContent,
    ),
  );
  return opened;
}

const status = (page, selector) => page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelector('.status').textContent, selector);

/** The (T, T) weights of layer l, head h of the example, from the safetensors file read in the page. */
function headWeights(page, l, h) {
  return page.evaluate(
    async ([layer, head]) => {
      const file = await window.io.readTensors(new Uint8Array(await (await fetch('./examples/induction/attention.safetensors')).arrayBuffer()), {
        name: 'a.safetensors',
      });
      const { data } = file.tensors.attention;
      return {
        tokens: file.tokens,
        rows: Array.from({ length: 24 }, (_, i) => Array.from(data.subarray(((layer * 4 + head) * 24 + i) * 24, ((layer * 4 + head) * 24 + i + 1) * 24))),
      };
    },
    [l, h],
  );
}

describe('<attn-heatmap src>', () => {
  it("src, tensor and index pick layer 2, head 1 of the trained model, exactly, with the file's tokens", async () => {
    const { page, problems } = await show(
      'heatmap-src.html',
      `
      <attn-heatmap id="st" src="${FILE}.safetensors" index="1 0"></attn-heatmap>
      <attn-heatmap id="npy" src="${FILE}.npy" tensor="attention" index="1 0" row-labels="${'abcdefghijklmnopqrstuvwx'.split('').join(' ')}" col-labels="${'abcdefghijklmnopqrstuvwx'.split('').join(' ')}"></attn-heatmap>`,
    );
    const want = await headWeights(page, 1, 0);
    expect((await shadowStageValues(page, '#st', 'weights'))[0]).toEqual(want.rows);
    expect((await shadowStageValues(page, '#npy', 'weights'))[0]).toEqual(want.rows);
    const labels = (sel) =>
      page.evaluate(
        (s) =>
          [...document.querySelector(s).shadowRoot.querySelectorAll('[data-row][data-col="0"]')].map((c) =>
            c.getAttribute('aria-label').split(' on key')[0].replace('weight of query ', ''),
          ),
        sel,
      );
    expect(await labels('#st')).toEqual(want.tokens);
    expect(await labels('#npy')).toEqual('abcdefghijklmnopqrstuvwx'.split(''));
    expect(problems).toEqual([]);
  });

  it('changing index redraws another head', async () => {
    const { page } = await show('heatmap-index.html', `<attn-heatmap id="h" src="${FILE}.json" index="0 0"></attn-heatmap>`);
    await page.evaluate(() => document.querySelector('#h').setAttribute('index', '0 3'));
    const want = (await headWeights(page, 0, 3)).rows;
    await page.waitForFunction((w) => {
      const cell = document.querySelector('#h').shadowRoot.querySelector('[data-row="5"][data-col="4"]');
      return cell && Math.abs(Number(cell.dataset.value) - w) < 1e-4;
    }, want[5][4]);
    const got = (await shadowStageValues(page, '#h', 'weights'))[0];
    let worst = 0;
    got.forEach((row, i) =>
      row.forEach((v, j) => {
        worst = Math.max(worst, Math.abs(v - want[i][j]));
      }),
    );
    expect(worst).toBeLessThanOrEqual(5e-5); // the JSON keeps 4 decimals
  });

  it('loading failures name the attribute and the file', async () => {
    const { page } = await show(
      'heatmap-errors.html',
      `
      <attn-heatmap id="missing" src="./examples/nothing-here.npy"></attn-heatmap>
      <attn-heatmap id="name" src="${FILE}.safetensors" tensor="weights" index="0 0"></attn-heatmap>
      <attn-heatmap id="rank" src="${FILE}.safetensors"></attn-heatmap>
      <attn-heatmap id="range" src="${FILE}.safetensors" index="2 0"></attn-heatmap>
      <attn-heatmap id="bad" src="./fixtures/truncated.npy"></attn-heatmap>
      <attn-heatmap id="pickle" src="./fixtures/object.npy"></attn-heatmap>`,
    );
    expect(await status(page, '#missing')).toBe('<attn-heatmap> src: ./examples/nothing-here.npy could not be loaded (HTTP 404)');
    expect(await status(page, '#name')).toBe(`<attn-heatmap> tensor: ${FILE}.safetensors has no tensor "weights" (it holds attention)`);
    expect(await status(page, '#rank')).toBe(
      `<attn-heatmap> index: ${FILE}.safetensors's attention still has shape [2, 4, 24, 24] after index ""; give 1 more leading index (e.g. index="0")`,
    );
    expect(await status(page, '#range')).toBe(`<attn-heatmap> index: "2 0": axis 0 of ${FILE}.safetensors's attention [2, 4, 24, 24] takes 0..1, got 2`);
    expect(await status(page, '#bad')).toMatch(
      /^<attn-heatmap> src: readTensors\(truncated\.npy\): shape \[3, 4\] of float32 needs 48 bytes of data, the file has 45 \(truncated\)$/,
    );
    expect(await status(page, '#pickle')).toMatch(/^<attn-heatmap> src: readTensors\(object\.npy\): dtype '\|O' is an object array/);
  });
});

describe('<attn-heads>', () => {
  it('src draws the model view of the trained model from the safetensors and the BertViz JSON alike', async () => {
    const { page, problems } = await show(
      'heads-src.html',
      `
      <attn-heads id="st" src="${FILE}.safetensors"></attn-heads>
      <attn-heads id="json" src="${FILE}.json" layers="1" heads="0 2" aggregates="false"></attn-heads>`,
    );
    const grid = (sel) =>
      page.evaluate(
        (s) => [...document.querySelector(s).shadowRoot.querySelectorAll('canvas[data-layer][data-head]')].map((c) => `${c.dataset.layer}/${c.dataset.head}`),
        sel,
      );
    expect(await grid('#st')).toHaveLength(4 * 3 + 2 * 3);
    expect(await grid('#json')).toEqual(['1/0', '1/2']);
    const tokens = await page.evaluate(() => [...document.querySelector('#st').shadowRoot.querySelectorAll('[data-token]')].map((b) => b.textContent).join(''));
    expect(tokens).toBe('axdofbmqyzaxdofbmqyzaxdo');
    expect(problems).toEqual([]);
  });
});

describe('<attn-figure src>', () => {
  const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));
  const FLOAT32 = 1e-6; // float32 sums and exps of numbers below 10

  it('computes the pipeline from X and nn.Linear-layout weights in a file, with transpose, exactly', async () => {
    await writeFile(
      join(pages.root, 'layer.safetensors'),
      writeSafetensors(
        { x: SEED_004.x, 'q_proj.weight': transpose(SEED_004.wq), 'k_proj.weight': transpose(SEED_004.wk), 'v_proj.weight': transpose(SEED_004.wv) },
        { tokens: ['I', 'saw', 'it'] },
      ),
    );
    const { page, problems } = await show(
      'figure-src.html',
      `
      <attn-figure id="f" src="layer.safetensors" transpose="wq wk wv" stages="weights output"></attn-figure>
      <attn-figure id="weights-only" src="${FILE}.safetensors"></attn-figure>
      <attn-figure id="unfit" src="layer.safetensors"></attn-figure>`,
    );
    await rendered(page, '#f', 'weights');
    const exact = selfAttention(SEED_004);
    expect(worstDifference((await shadowStageValues(page, '#f', 'weights'))[0], exact.weights).diff).toBeLessThan(FLOAT32);
    expect(worstDifference((await shadowStageValues(page, '#f', 'output'))[0], exact.output).diff).toBeLessThan(4 * FLOAT32);
    expect(await page.evaluate(() => document.querySelector('#f').state.tokens)).toEqual(['I', 'saw', 'it']);
    expect(await status(page, '#weights-only')).toBe(
      `<attn-figure> src: ${FILE}.safetensors holds no x, wq, wk, wv or q, k, v tensors (it holds attention); attention weights alone go to <attn-heatmap src> or <attn-heads src>`,
    );
    // Without transpose the square weights are read as (d_in, d): a different, valid layer; the
    // figure shows it, and the numbers differ from the transposed reading.
    await rendered(page, '#unfit', 'weights');
    const other = (await shadowStageValues(page, '#unfit', 'weights'))[0];
    expect(worstDifference(other, exact.weights).diff).toBeGreaterThan(0.01);
    expect(problems).toEqual([]);
  });
});
