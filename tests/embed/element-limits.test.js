// The elements' limits in real Chromium (issue 37, findings 4 and 6): a heatmap above the SVG cell
// budget draws on a canvas and says so; the src file cache is bounded by bytes and lets go of the
// files of removed elements; the export menu's document listener leaves with its element; a child
// JSON with labels of the wrong type gives a named message in the figure.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widestText } from '../../web/figures/svg.js';
import { writeNpy, writeSafetensors } from '../../web/io/index.js';
import { axeViolations, blocking } from '../support/axe.js';
import { elementsPage, startPages } from '../support/pages.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
// The file cache's budget, as file-source.js sets it.
const CACHE_BUDGET = 64 * 2 ** 20;

let pages;
beforeAll(async () => {
  pages = await startPages();
});
afterAll(async () => {
  await pages?.close();
});

/** A (T, T) attention-like map: row i is a softmax that peaks on the diagonal, so pixels can be checked. */
function diagonalWeights(T) {
  const data = new Float32Array(T * T);
  for (let i = 0; i < T; i++) {
    for (let j = 0; j < T; j++) data[i * T + j] = i === j ? 0.75 : 0.25 / (T - 1);
  }
  return { data, shape: [T, T] };
}

// The file cache's state, through the same module instance the elements import.
const CACHE = '<script type="module">import * as files from "./web/elements/file-source.js"; window.files = files;</script>';

async function show(name, body, { head = '' } = {}) {
  await pages.write(name, elementsPage(body, { head }));
  const opened = await pages.open(name);
  await opened.page.waitForFunction(
    () =>
      [...document.querySelectorAll('attn-heatmap')].every(
        (e) => e.shadowRoot.querySelector('[data-stage]') || e.shadowRoot.querySelector('.status')?.textContent,
      ),
    null,
    { timeout: 15_000 },
  );
  return opened;
}

const status = (page, selector) => page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelector('.status').textContent, selector);

describe('a heatmap above the SVG cell budget', () => {
  it('a 1024 × 1024 <attn-heatmap src> draws on a canvas in a few seconds, says so, and stays focusable, named and axe-clean', async () => {
    const T = 1024;
    await writeFile(join(pages.root, 'big.safetensors'), writeSafetensors({ attention: diagonalWeights(T) }));
    const started = Date.now();
    const { page, problems } = await show(
      'big-heatmap.html',
      '<main><h1>Big</h1><attn-heatmap id="big" src="big.safetensors" title="Big map"></attn-heatmap></main>',
      { head: '<title>A big heatmap</title>' },
    );
    const ms = Date.now() - started;
    console.log(`<attn-heatmap src> of ${T} × ${T}: drawn in ${ms} ms (page load included)`);
    // 40 s and 4 GiB as SVG cells; a canvas is one ImageData. 10 s leaves room for a busy machine.
    expect(ms).toBeLessThan(10_000);
    const figure = await page.evaluate(() => {
      const root = document.querySelector('#big').shadowRoot;
      const canvas = root.querySelector('canvas');
      const focusable = root.querySelector('[tabindex="0"]');
      return {
        stage: root.querySelector('[data-stage]')?.dataset.stage,
        cells: root.querySelectorAll('[data-row][data-col]').length,
        size: canvas && [canvas.width, canvas.height],
        // The diagonal's colour (0.75) is darker than the off-diagonal's (0.25 / 1023).
        diagonal: canvas && Array.from(canvas.getContext('2d').getImageData(500, 500, 1, 1).data),
        offDiagonal: canvas && Array.from(canvas.getContext('2d').getImageData(501, 500, 1, 1).data),
        note: root.querySelector('[data-role="canvas-note"]')?.textContent,
        focusName: focusable?.getAttribute('aria-label'),
        describedBy: focusable && root.getElementById(focusable.getAttribute('aria-describedby') ?? '')?.textContent,
        status: root.querySelector('.status').textContent,
      };
    });
    expect(figure.stage).toBe('weights');
    expect(figure.cells).toBe(0); // no SVG cells at all
    expect(figure.size).toEqual([T, T]);
    expect(figure.diagonal[0]).toBeLessThan(figure.offDiagonal[0] - 100);
    expect(figure.note).toMatch(/^Drawn on a canvas: 1,048,576 cells are more than the 16,384 drawn as SVG cells\./);
    expect(figure.focusName).toBe('Big map: 1024 queries by 1024 keys');
    expect(figure.describedBy).toBe(figure.note);
    expect(figure.status).toBe('');

    // The keyboard reads what the pointer reads: arrows move over the weights, the readout says each.
    await page.focus('#big >> [tabindex="0"]');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const readout = await page.evaluate(() => ({ ...document.querySelector('#big').shadowRoot.querySelector('[data-role="readout"]').dataset }));
    expect(readout).toMatchObject({ row: '1', col: '1', value: '0.75' });

    await mkdir(ARTIFACTS, { recursive: true });
    await page.locator('#big').screenshot({ path: join(ARTIFACTS, 'canvas-heatmap-1024.png') });
    expect(blocking(await axeViolations(page))).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('a heatmap drawn on a canvas says so in Chinese on a zh-CN page', async () => {
    await writeFile(join(pages.root, 'zh.npy'), writeNpy(diagonalWeights(200)));
    const { page } = await show('zh-heatmap.html', '<div lang="zh-CN"><attn-heatmap id="zh" src="zh.npy"></attn-heatmap></div>');
    const note = await page.evaluate(() => document.querySelector('#zh').shadowRoot.querySelector('[data-role="canvas-note"]').textContent);
    expect(note).toMatch(/^以画布绘制：40,000 个单元格超过 SVG 单元格的上限 16,384。/);
  });

  it('a (130000, 1) tensor from a file draws without "Maximum call stack size exceeded"', async () => {
    const column = { data: Float32Array.from({ length: 130_000 }, (_, i) => (i % 100) / 100), shape: [130_000, 1] };
    await writeFile(join(pages.root, 'column.npy'), writeNpy(column));
    const { page, problems } = await show('column.html', '<attn-heatmap id="col" src="column.npy"></attn-heatmap>');
    expect(await status(page, '#col')).toBe('');
    expect(await page.evaluate(() => document.querySelector('#col').shadowRoot.querySelector('canvas')?.height)).toBe(130_000);
    expect(problems).toEqual([]);
  });

  it('no figure or element spreads a list into Math.max or Math.min (the stack holds ~10^5 arguments), and label widths are measured by a loop', async () => {
    const sources = [];
    for (const folder of ['figures', 'elements']) {
      const root = fileURLToPath(new URL(`../../web/${folder}/`, import.meta.url));
      for (const name of await readdir(root, { recursive: true })) {
        if (name.endsWith('.js')) sources.push([`web/${folder}/${name}`, await readFile(join(root, name), 'utf8')]);
      }
    }
    const spreads = sources.flatMap(([file, code]) =>
      code
        .split('\n')
        .map((line, k) => [file, k + 1, line])
        .filter(
          ([, , line]) => /Math\.(max|min)\([^)]*\.\.\./.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*') && !line.includes('/**'),
        )
        .map(([f, k, line]) => `${f}:${k}: ${line.trim()}`),
    );
    expect(spreads).toEqual([]);
    const labels = Array.from({ length: 500_000 }, (_, i) => String(i));
    expect(widestText(labels, 10)).toBeCloseTo(6 * 10 * 0.6, 9); // '100000'..'499999': 6 characters
  });
});

describe('the src file cache', () => {
  it('lets go of a file when the last element showing it is removed, and keeps it while one still does', async () => {
    const files = Array.from({ length: 4 }, (_, k) => `small-${k}.npy`);
    for (const name of files) await writeFile(join(pages.root, name), writeNpy(diagonalWeights(16)));
    const { page } = await show(
      'cache-free.html',
      `${files.map((f, k) => `<attn-heatmap id="e${k}" src="${f}"></attn-heatmap>`).join('')}<attn-heatmap id="twin" src="${files[0]}"></attn-heatmap>`,
      { head: CACHE },
    );
    expect(await page.evaluate(() => window.files.fileCache().files)).toBe(4);
    await page.evaluate(async () => {
      for (const k of [0, 1, 2, 3]) document.querySelector(`#e${k}`).remove();
      await Promise.resolve(); // the release runs in the microtask after the removal, not some task later
    });
    // The twin still shows small-0.npy; the three others had no user left.
    expect(await page.evaluate(() => window.files.fileCache())).toEqual({ files: 1, bytes: 16 * 16 * 4, budget: CACHE_BUDGET });
    // A move (disconnect and connect in one task) is not a removal.
    await page.evaluate(() => document.body.append(document.querySelector('#twin')));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(await page.evaluate(() => window.files.fileCache().files)).toBe(1);
    await page.evaluate(() => document.querySelector('#twin').remove());
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(await page.evaluate(() => window.files.fileCache())).toEqual({ files: 0, bytes: 0, budget: CACHE_BUDGET });
  });

  it('lets go of the file of an element removed while its render was still loading it', async () => {
    await writeFile(join(pages.root, 'brief.npy'), writeNpy(diagonalWeights(8)));
    const { page } = await show('cache-brief.html', '', { head: CACHE });
    const cache = await page.evaluate(async () => {
      const element = document.createElement('attn-heatmap');
      element.setAttribute('src', 'brief.npy');
      document.body.append(element);
      await Promise.resolve(); // its render has begun and waits for the file reader
      element.remove();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return window.files.fileCache();
    });
    expect(cache).toEqual({ files: 0, bytes: 0, budget: CACHE_BUDGET });
  });

  it('holds at most its byte budget however many files the page shows', async () => {
    // 24 files of 4 MiB (512 × 2048 float32) on one page: 96 MiB, over the 64 MiB budget.
    const names = Array.from({ length: 24 }, (_, k) => `wide-${k}.npy`);
    const block = { data: new Float32Array(512 * 2048).fill(0.5), shape: [512, 2048] };
    for (const name of names) await writeFile(join(pages.root, name), writeNpy(block));
    const { page, problems } = await show('cache-budget.html', names.map((f) => `<attn-heatmap src="${f}"></attn-heatmap>`).join(''), { head: CACHE });
    const cache = await page.evaluate(() => window.files.fileCache());
    console.log(`24 files of 4 MiB shown: the cache holds ${cache.files} files, ${(cache.bytes / 2 ** 20).toFixed(0)} MiB`);
    expect(cache.bytes).toBeLessThanOrEqual(CACHE_BUDGET);
    expect(cache.files).toBe(16);
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('the export menu', () => {
  it('50 elements removed with their menu open leave no document click listener', async () => {
    const body = Array.from({ length: 50 }, (_, k) => `<attn-heatmap id="m${k}" weights="[[0.5, 0.5], [0.25, 0.75]]"></attn-heatmap>`).join('');
    // Counts the document's click listeners from before the elements load.
    const head = `<script>
      window.clickListeners = new Set();
      const add = document.addEventListener, remove = document.removeEventListener;
      document.addEventListener = function (type, fn, options) { if (type === 'click') window.clickListeners.add(fn); return add.call(this, type, fn, options); };
      document.removeEventListener = function (type, fn, options) { if (type === 'click') window.clickListeners.delete(fn); return remove.call(this, type, fn, options); };
    </script>`;
    const { page } = await show('menus.html', body, { head });
    const before = await page.evaluate(() => window.clickListeners.size);
    await page.evaluate(async () => {
      const menus = [...document.querySelectorAll('attn-heatmap')].map((e) => e.shadowRoot.querySelector('details.figure-menu'));
      for (const menu of menus) menu.open = true;
      await new Promise((resolve) => setTimeout(resolve, 50)); // the toggle events
    });
    expect(await page.evaluate(() => window.clickListeners.size)).toBe(before + 50);
    await page.evaluate(async () => {
      for (const element of document.querySelectorAll('attn-heatmap')) element.remove();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(await page.evaluate(() => window.clickListeners.size)).toBe(before);
  });
});

describe('child JSON of the wrong type', () => {
  it('labels given as an object (or holding objects) name the key and what was expected, in the figure', async () => {
    const child = (json) => `<script type="application/json">${JSON.stringify(json)}</script>`;
    const weights = [
      [0.5, 0.5],
      [0.25, 0.75],
    ];
    const { page, problems } = await show(
      'child-types.html',
      `
      <attn-heatmap id="col">${child({ weights, colLabels: { a: 1 } })}</attn-heatmap>
      <attn-heatmap id="row">${child({ weights, rowLabels: 'the cat' })}</attn-heatmap>
      <attn-heatmap id="inner">${child({ weights, rowLabels: ['the', { x: 1 }] })}</attn-heatmap>
      <attn-heatmap id="title">${child({ weights, title: ['a'] })}</attn-heatmap>
      <attn-heatmap id="numbers">${child({ weights, rowLabels: [1, 2] })}</attn-heatmap>`,
    );
    expect(await status(page, '#col')).toBe('<attn-heatmap> colLabels must be an array of strings, got object');
    expect(await status(page, '#row')).toBe('<attn-heatmap> rowLabels must be an array of strings, got string');
    expect(await status(page, '#inner')).toBe('<attn-heatmap> rowLabels must be an array of strings, got an array holding object at 1');
    expect(await status(page, '#title')).toBe('<attn-heatmap> title must be a string, got array');
    // Numbers are labels too, as the attributes read them.
    expect(await status(page, '#numbers')).toBe('');
    expect(problems.filter((p) => !p.includes('colLabels') && !p.includes('rowLabels'))).toEqual([]);
  });

  it('<attn-heads> rowLabels given as an object name the key', async () => {
    const { page } = await show(
      'heads-types.html',
      `<attn-heads id="h"><script type="application/json">${JSON.stringify({
        attention: [
          [
            [
              [1, 0],
              [0.5, 0.5],
            ],
          ],
        ],
        rowLabels: { a: 1 },
      })}</script></attn-heads>`,
    );
    await page.waitForFunction(() => document.querySelector('#h').shadowRoot.querySelector('.status').textContent);
    expect(await status(page, '#h')).toBe('<attn-heads> rowLabels must be an array of strings, got object');
  });
});
