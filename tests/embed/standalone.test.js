// standaloneHtml() (web/figures/export/standalone-html.js) and the elements' Export -> HTML: each file
// written to a temporary folder and opened from file:// in Chromium with every request but the
// file itself aborted (a test fails on any other request): exact values, hover, editing with the
// core recomputing, masking, no console error; the file's sizes against the budgets.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standaloneHtml } from '../../web/figures/index.js';
import { writeSafetensors } from '../../web/io/index.js';
import { runCli } from '../cli/run.js';
import { selfAttention, softmaxRow } from '../reference/matrices.js';
import { shadowStageValues, worstDifference } from '../support/figures.js';
import { openOffline } from '../support/offline.js';
import { elementsPage, rendered, savedHtml, startPages } from '../support/pages.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/standalone/', import.meta.url));
const KIB = 1024;
// The float32 core against the float64 reference: a few ulps of values of order 1-10.
const FLOAT32 = 4e-6;

// Not the explorer's preset: 4 tokens, d = 3, values with many digits (exactness shows).
const X = [
  [0.5, -1.25, 2],
  [1.5, 0.75, -0.5],
  [-2, 0.25, 1],
  [0.125, 1, 0.375],
];
const WQ = [
  [0.3, -0.2, 0.1],
  [0.05, 0.4, -0.3],
  [-0.6, 0.2, 0.25],
];
const WK = [
  [0.2, 0.1, -0.4],
  [-0.3, 0.35, 0.1],
  [0.15, -0.2, 0.5],
];
const WV = [
  [1, 0, 0.5],
  [0, 1, -0.5],
  [0.25, 0.25, 1],
];
const TOKENS = ['the', 'cat', 'sat', 'down'];
const DATA = { x: X, wq: [WQ], wk: [WK], wv: [WV], tokens: TOKENS };

let folder;
let pages;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'attnlab-standalone-'));
  await mkdir(ARTIFACTS, { recursive: true });
  pages = await startPages();
});
afterAll(async () => {
  await pages?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const size = (text) => ({ raw: Buffer.byteLength(text), gzip: gzipSync(text, { level: 9 }).length });

describe('standaloneHtml: a heatmap of given weights (no wasm)', () => {
  // (2, 3, 4): two batches stacked as rows, values that float32 rounds (0.1, 1/3).
  const weights = [
    [
      [0.1, 0.2, 0.3, 0.4],
      [1 / 3, 1 / 3, 1 / 6, 1 / 6],
      [0.7, 0.05, 0.05, 0.2],
    ],
    [
      [0.25, 0.25, 0.25, 0.25],
      [0.9, 0.0999, 0.0001, 0],
      [0.012345678, 0.5, 0.2, 0.287654322],
    ],
  ];

  it('opens from file:// with no other request, shows every weight exactly and its value on hover', async () => {
    const text = await standaloneHtml({
      element: 'attn-heatmap',
      attributes: { title: 'Two batches', xlabel: 'Keys', 'row-labels': 'a b c' },
      data: { weights, colLabels: TOKENS },
      title: 'A heatmap',
    });
    expect(size(text).raw).toBeLessThan(60 * KIB);
    const { page, problems } = await openOffline('heatmap.html', text);
    expect(await page.title()).toBe('A heatmap');
    const cells = await page.evaluate(() =>
      [...document.querySelector('attn-heatmap').shadowRoot.querySelectorAll('[data-value][data-row]')].map((c) => [
        Number(c.dataset.batch ?? 0),
        Number(c.dataset.row),
        Number(c.dataset.col),
        c.dataset.value,
      ]),
    );
    expect(cells).toHaveLength(24);
    for (const [b, i, j, value] of cells) expect(value).toBe(String(Math.fround(weights[b][i][j])));
    // Hover: the cell under the pointer names its exact value (its tooltip and accessible name).
    const box = await page.evaluate(() => {
      const r = document.querySelector('attn-heatmap').shadowRoot.querySelector('[data-batch="1"][data-row="2"][data-col="0"]').getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.move(box.x, box.y);
    const hovered = await page.evaluate(() => {
      const cell = document.querySelector('attn-heatmap').shadowRoot.querySelector('[data-value]:hover');
      return { value: cell?.dataset.value, tip: cell?.querySelector('title')?.textContent ?? '', label: cell?.getAttribute('aria-label') ?? '' };
    });
    expect(hovered.value).toBe(String(Math.fround(0.012345678)));
    expect(`${hovered.tip} ${hovered.label}`).toContain(String(Math.fround(0.012345678)));
    expect(problems).toEqual([]);
  });

  it('rejects a spec it cannot write, naming the field', async () => {
    await expect(standaloneHtml(null)).rejects.toThrow(TypeError);
    await expect(standaloneHtml({ element: 'attn-matrix' })).rejects.toThrow(/spec\.element must be one of 'attn-figure'/);
    await expect(standaloneHtml({ element: 'attn-heatmap', attributes: { src: 'a.npy' } })).rejects.toThrow(/attributes\.src/);
    await expect(standaloneHtml({ element: 'attn-heatmap', attributes: { 'on click': 'x' } })).rejects.toThrow(/'on click' is not an attribute name/);
    await expect(standaloneHtml({ element: 'attn-heatmap', attributes: { label: {} } })).rejects.toThrow(/attributes\.label must be a string/);
    await expect(standaloneHtml({ element: 'attn-heatmap', data: { weights: [[NaN]] } })).rejects.toThrow(RangeError);
    await expect(standaloneHtml({ element: 'attn-heatmap' }, { read: 3 })).rejects.toThrow(/read must be a function/);
    await expect(standaloneHtml({ element: 'attn-heatmap' }, { read: async () => 42 })).rejects.toThrow(/must give a Uint8Array or a string/);
  });

  it('a label holding </script> stays text', async () => {
    const text = await standaloneHtml({
      element: 'attn-heatmap',
      attributes: { title: '</script><b>x</b>' },
      data: {
        weights: [
          [1, 0],
          [0.5, 0.5],
        ],
        rowLabels: ['</script>', '<!--'],
      },
    });
    const { page, problems } = await openOffline('escaped.html', text);
    expect(await page.evaluate(() => document.querySelector('attn-heatmap').getAttribute('title'))).toBe('</script><b>x</b>');
    expect(await page.evaluate(() => document.querySelectorAll('b').length)).toBe(0);
    expect(problems).toEqual([]);
  });
});

describe('standaloneHtml: a computing <attn-figure>', () => {
  it('computes with the inlined core from file://, recomputes on an edit and on a mask, and stays offline', async () => {
    const text = await standaloneHtml({
      element: 'attn-figure',
      attributes: { stages: 'x q k scores weights output', editable: true },
      data: DATA,
      title: 'Self-attention',
    });
    expect(size(text).raw).toBeLessThan(250 * KIB);
    const { page, problems } = await openOffline('figure.html', text);
    await rendered(page, 'attn-figure', 'weights');
    const exact = selfAttention({ x: X, wq: WQ, wk: WK, wv: WV });
    expect(worstDifference((await shadowStageValues(page, 'attn-figure', 'weights'))[0], exact.weights).diff).toBeLessThan(FLOAT32);
    expect(worstDifference((await shadowStageValues(page, 'attn-figure', 'output'))[0], exact.output).diff).toBeLessThan(FLOAT32);
    await page.screenshot({ path: join(ARTIFACTS, 'attn-figure-offline.png'), fullPage: true });

    // An edit: X[2][1] typed as 3, through the keyboard (Tab to X, down twice, right once, Enter).
    await page.keyboard.press('Tab');
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight', 'Enter']) await page.keyboard.press(key);
    await page.waitForFunction(() => document.querySelector('attn-figure').shadowRoot.activeElement?.classList.contains('cell-editor'));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('attn-figure').shadowRoot.querySelector('svg[data-stage="x"] [data-row="2"][data-col="1"]').dataset.value === '3',
    );
    const edited = X.map((row) => row.slice());
    edited[2][1] = 3;
    const after = selfAttention({ x: edited, wq: WQ, wk: WK, wv: WV });
    expect(worstDifference((await shadowStageValues(page, 'attn-figure', 'weights'))[0], after.weights).diff).toBeLessThan(FLOAT32);

    // A mask: a click on score (1, 3) hides that key from query 1; the row renormalises over the rest.
    const scoreBox = await page.evaluate(() => {
      const r = document
        .querySelector('attn-figure')
        .shadowRoot.querySelector('svg[data-stage="scores"] .cell[data-row="1"][data-col="3"]')
        .getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.click(scoreBox.x, scoreBox.y);
    await page.waitForFunction(
      () => document.querySelector('attn-figure').shadowRoot.querySelector('svg[data-stage="weights"] [data-row="1"][data-col="3"]').dataset.value === '0',
    );
    const scale = 1 / Math.sqrt(3);
    const row = after.q[1].map((_, j) => (j === 3 ? -Infinity : after.q[1].reduce((s, q, t) => s + q * after.k[j][t], 0) * scale));
    const masked = (await shadowStageValues(page, 'attn-figure', 'weights'))[0];
    expect(worstDifference(masked[1], softmaxRow(row)).diff).toBeLessThan(FLOAT32);
    expect(worstDifference(masked[0], after.weights[0]).diff).toBeLessThan(FLOAT32); // other rows unchanged
    await page.screenshot({ path: join(ARTIFACTS, 'attn-figure-offline-edited.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});

describe('standaloneHtml: what an <attn-figure> loads only when it shows it', () => {
  // The element imports these on demand (a preset by name, the heatmap view, the backward stages);
  // a file that left one out would show the loader's error instead of the figure.
  it('a named preset in the heatmap view, and the backward stages, draw offline', async () => {
    const heatmapFile = await standaloneHtml({ element: 'attn-figure', attributes: { preset: 'sentence', view: 'heatmap' } });
    const heatmapPage = await openOffline('figure-heatmap.html', heatmapFile);
    await rendered(heatmapPage.page, 'attn-figure', 'weights');
    expect(await heatmapPage.page.evaluate(() => document.querySelector('attn-figure').shadowRoot.querySelectorAll('.gallery-item').length)).toBeGreaterThan(0);
    expect(heatmapPage.problems).toEqual([]);
    const backwardFile = await standaloneHtml({ element: 'attn-figure', attributes: { preset: 'seed-004', stages: 'weights dq' } });
    const backwardPage = await openOffline('figure-backward.html', backwardFile);
    await rendered(backwardPage.page, 'attn-figure', 'dq');
    expect(backwardPage.problems).toEqual([]);
  });
});

describe('attention-lab figure --view pipeline', () => {
  it("writes the computing figure of a file's X, Wq, Wk, Wv, which computes offline as the reference", async () => {
    const tensor = (rows, shape) => ({ data: Float32Array.from(rows.flat()), shape });
    const file = join(folder, 'layer.safetensors');
    await writeFile(file, writeSafetensors({ x: tensor(X, [4, 3]), wq: tensor(WQ, [3, 3]), wk: tensor(WK, [3, 3]), wv: tensor(WV, [3, 3]) }));
    const out = join(folder, 'cli-pipeline.html');
    const { code, stdout, stderr } = await runCli(['figure', file, '--view', 'pipeline', '--row-labels', TOKENS.join(' '), '-o', out]);
    expect(stdout).toBe('');
    expect(code).toBe(0);
    expect(stderr).toBe(`wrote ${out} (pipeline, html, ${(await stat(out)).size} bytes)\n`);
    const { readFile } = await import('node:fs/promises');
    const { page, problems } = await openOffline('cli-pipeline-opened.html', await readFile(out, 'utf8'));
    await rendered(page, 'attn-figure', 'weights');
    const exact = selfAttention({ x: X, wq: WQ, wk: WK, wv: WV });
    expect(worstDifference((await shadowStageValues(page, 'attn-figure', 'weights'))[0], exact.weights).diff).toBeLessThan(FLOAT32);
    expect(worstDifference((await shadowStageValues(page, 'attn-figure', 'output'))[0], exact.output).diff).toBeLessThan(FLOAT32);
    expect(await page.evaluate(() => document.querySelector('attn-figure').state.tokens)).toEqual(TOKENS);
    expect(problems).toEqual([]);
  });
});

describe('Export -> HTML in the elements', () => {
  it('<attn-figure> saves its edited state; the file shows exactly what the page showed, offline', async () => {
    await pages.write(
      'save-figure.html',
      elementsPage(`<attn-figure id="f" stages="x weights output" editable><script type="application/json">${JSON.stringify(DATA)}</script></attn-figure>`),
    );
    const { page, problems } = await pages.open('save-figure.html');
    await rendered(page, '#f', 'weights');
    // An edit on the page (a drag on X[0][0]: +1), then save.
    const at = await page.evaluate(() => {
      const r = document.querySelector('#f').shadowRoot.querySelector('svg[data-stage="x"] .cell[data-row="0"][data-col="0"]').getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 50, at.y, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(
      () => document.querySelector('#f').shadowRoot.querySelector('svg[data-stage="x"] [data-row="0"][data-col="0"]').dataset.value === '1.5',
    );
    const shown = await shadowStageValues(page, '#f', 'weights');
    const saved = await savedHtml(page, '#f');
    expect(saved.name).toMatch(/\.html$/);
    expect(problems).toEqual([]);
    const opened = await openOffline('saved-figure.html', saved.text);
    await rendered(opened.page, 'attn-figure', 'weights');
    expect(await shadowStageValues(opened.page, 'attn-figure', 'weights')).toEqual(shown);
    expect(await opened.page.evaluate(() => document.querySelector('attn-figure').hasAttribute('editable'))).toBe(true);
    expect(opened.problems).toEqual([]);
  });

  it('<attn-heatmap> saves, and the saved file saves again with no network', async () => {
    const weights = [
      [0.1, 0.9],
      [0.6180339887, 0.3819660113],
    ];
    await pages.write(
      'save-heatmap.html',
      elementsPage(`<attn-heatmap id="h" title="Pair" row-labels="a b" weights="${JSON.stringify(weights)}"></attn-heatmap>`),
    );
    const { page } = await pages.open('save-heatmap.html');
    await rendered(page, '#h');
    const first = await openOffline('saved-heatmap.html', (await savedHtml(page, '#h')).text);
    const again = await openOffline('saved-again.html', (await savedHtml(first.page, 'attn-heatmap')).text);
    const values = await shadowStageValues(again.page, 'attn-heatmap', 'weights');
    expect(values).toEqual([weights.map((row) => row.map(Math.fround))]);
    expect(await again.page.evaluate(() => document.querySelector('attn-heatmap').getAttribute('title'))).toBe('Pair');
    expect([...first.problems, ...again.problems]).toEqual([]);
  });

  it('<attn-heads> offers HTML (its grid is canvases, so not SVG or PNG) and the file draws the same grid', async () => {
    const attention = [
      [
        [
          [1, 0],
          [0.25, 0.75],
        ],
        [
          [0.5, 0.5],
          [0.125, 0.875],
        ],
      ],
    ]; // (L=1, H=2, 2, 2)
    await pages.write(
      'save-heads.html',
      elementsPage(`<attn-heads id="m" row-labels="x y"><script type="application/json">${JSON.stringify({ attention })}</script></attn-heads>`),
    );
    const { page } = await pages.open('save-heads.html');
    await page.waitForFunction(() => document.querySelector('#m').shadowRoot.querySelector('canvas'));
    const visible = await page.evaluate(() =>
      [...document.querySelector('#m').shadowRoot.querySelectorAll('[data-export]')].filter((b) => !b.hidden).map((b) => b.dataset.export),
    );
    expect(visible).toEqual(['html']);
    const opened = await openOffline('saved-heads.html', (await savedHtml(page, '#m')).text);
    await opened.page.waitForFunction(() => document.querySelector('attn-heads').shadowRoot.querySelectorAll('canvas').length > 0);
    const count = (p) => p.evaluate(() => document.querySelector('attn-heads').shadowRoot.querySelectorAll('canvas').length);
    expect(await count(opened.page)).toBe(await page.evaluate(() => document.querySelector('#m').shadowRoot.querySelectorAll('canvas').length));
    expect(opened.problems).toEqual([]);
  });
});
