// The standalone HTML page opened from file:// in the system Chromium with every request outside
// the file refused: it loads nothing else, logs no error, shows the exact value of the hovered cell,
// and its colours are the ones Chromium's own color-mix() in oklab gives for figures.css's rule.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import { INDUCTION, fixtureTensor, induction } from './expected.js';
import { REPO, runCli } from './run.js';

const SCREENSHOT = join(REPO, 'tests/artifacts/cli-heatmap-file-url.png');
let dir;
let browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attnlab-cli-html-'));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Writes the figure and opens it from file://; -> { page, problems, blocked, requests }. */
async function openFigure(args, name) {
  const out = join(dir, name);
  const { code, stderr } = await runCli(['figure', ...args, '--quiet', '-o', out]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  const problems = watchProblems(page, { warnings: true });
  const requests = [];
  const blocked = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.route('**', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(out).href);
  return { page, problems, blocked, requests };
}

describe('the standalone HTML page from file:// with the network blocked', () => {
  it("a heatmap shows the hovered cell's tokens, positions from 0 and exact value, and requests nothing but itself", async () => {
    const { data, shape, tokens } = induction();
    const [, H, T] = shape;
    const { page, problems, blocked, requests } = await openFigure([INDUCTION, '--index', '1,2'], 'heatmap.html');
    try {
      expect(await page.locator('[data-value]').count()).toBe(T * T);
      for (const [i, j] of [
        [0, 0],
        [3, 10],
        [23, 22],
      ]) {
        await page.hover(`g[data-row="${i}"] > rect[data-col="${j}"]`);
        const readout = page.locator('#readout');
        const want = String(data[(1 * H + 2) * T * T + i * T + j]);
        expect(await readout.getAttribute('data-value')).toBe(want);
        expect(await readout.textContent()).toBe(`query ${tokens[i]} (${i}) → key ${tokens[j]} (${j}): ${want}`);
      }
      await mkdir(join(REPO, 'tests/artifacts'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      expect(problems).toEqual([]);
      expect(blocked).toEqual([]);
      expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
      expect(requests).toHaveLength(1);
    } finally {
      await page.close();
    }
  });

  it('the heads grid names the layer and head of the hovered cell, as heads() does', async () => {
    const { data, shape, tokens } = induction();
    const [, H, T] = shape;
    const { page, problems, blocked } = await openFigure([INDUCTION, '--view', 'heads'], 'heads.html');
    try {
      await page.hover('[data-layer="1"][data-head="3"] > g[data-row="20"] > rect[data-col="17"]');
      const want = String(data[(1 * H + 3) * T * T + 20 * T + 17]);
      expect(await page.locator('#readout').textContent()).toBe(`layer 1, head 3: query ${tokens[20]} (20) → key ${tokens[17]} (17): ${want}`);
      expect(problems).toEqual([]);
      expect(blocked).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('a map without tokens reads positions only: query (1) → key (2)', async () => {
    const { data } = fixtureTensor('float32_le.npy', 'float32_le');
    const { page, problems } = await openFigure(['tests/io/fixtures/float32_le.npy'], 'numbered.html');
    try {
      await page.hover('g[data-row="1"] > rect[data-col="2"]');
      expect(await page.locator('#readout').textContent()).toBe(`query (1) → key (2): ${data[1 * 4 + 2]}`);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("each cell's fill is what Chromium's color-mix() in oklab gives for figures.css's default rule, within 1 of 255", async () => {
    const { page } = await openFigure([INDUCTION, '--index', '0,1'], 'colours.html');
    try {
      // figures.css: fill: color-mix(in oklab, var(--attn-weight, #4338ca) calc(t * 85%), var(--attn-cell, #fff)); t = the weight.
      const worst = await page.evaluate(() => {
        const probe = document.body.appendChild(document.createElement('div'));
        const rgb = (css) => {
          probe.style.color = '';
          probe.style.color = css;
          return getComputedStyle(probe).color;
        };
        const channels = (text) => {
          const c = document.createElement('canvas').getContext('2d');
          c.fillStyle = text;
          c.fillRect(0, 0, 1, 1);
          return [...c.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        let max = 0;
        for (const cell of document.querySelectorAll('[data-value]')) {
          const t = Math.min(1, Math.max(0, Number(cell.dataset.value)));
          const want = channels(rgb(`color-mix(in oklab, #4338ca ${t * 85}%, #ffffff)`));
          const got = channels(cell.getAttribute('fill'));
          max = Math.max(max, ...want.map((w, k) => Math.abs(w - got[k])));
        }
        return max;
      });
      // Rounding to 8 bits on either side: the two mixes agree to the last step.
      expect(worst).toBeLessThanOrEqual(1);
    } finally {
      await page.close();
    }
  });
});
