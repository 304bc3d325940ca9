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
beforeAll(async () => { pages = await startPages(); });
afterAll(async () => { await pages?.close(); });

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
  await opened.page.waitForFunction(() => [...document.querySelectorAll('attn-heatmap')].every((e) => e.shadowRoot.querySelector('[data-stage]') || e.shadowRoot.querySelector('.status')?.textContent), null, { timeout: 15_000 });
  return opened;
}

const status = (page, selector) => page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelector('.status').textContent, selector);

describe('a heatmap above the SVG cell budget', () => {
  it('no figure or element spreads a list into Math.max or Math.min (the stack holds ~10^5 arguments), and label widths are measured by a loop', async () => {
    const sources = [];
    for (const folder of ['figures', 'elements']) {
      const root = fileURLToPath(new URL(`../../web/${folder}/`, import.meta.url));
      for (const name of await readdir(root, { recursive: true })) {
        if (name.endsWith('.js')) sources.push([`web/${folder}/${name}`, await readFile(join(root, name), 'utf8')]);
      }
    }
    const spreads = sources.flatMap(([file, code]) => code.split('\n').map((line, k) => [file, k + 1, line])
      .filter(([, , line]) => /Math\.(max|min)\([^)]*\.\.\./.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*') && !line.includes('/**'))
      .map(([f, k, line]) => `${f}:${k}: ${line.trim()}`));
    expect(spreads).toEqual([]);
    const labels = Array.from({ length: 500_000 }, (_, i) => String(i));
    expect(widestText(labels, 10)).toBeCloseTo(6 * 10 * 0.6, 9); // '100000'..'499999': 6 characters
  });
});

