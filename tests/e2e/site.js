// The explorer in real Chromium, for the end-to-end tests: the built page (dist/site, from
// `npm run build:site`) served by startServer() on a free loopback port, one browser per test
// file, and pages that record every console error and page error (the tests expect none).
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/chromium.mjs';
import { startServer } from '../../tools/static-server.mjs';

export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/site/', import.meta.url));
const SITE = fileURLToPath(new URL('../../dist/site/', import.meta.url));

/** -> { url, open(query, options), close() }. */
export async function startSite() {
  const server = await startServer(SITE);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const contexts = [];

  /**
   * A new page (in its own context) at `query` ('?preset=d2l', '#s=...' or a full URL), once the
   * weights are drawn. -> { page, problems: string[] }.
   */
  async function open(query = '', { viewport = VIEWPORTS.desktop, colorScheme = 'light', permissions = [] } = {}) {
    const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1, acceptDownloads: true });
    contexts.push(context);
    if (permissions.length) await context.grantPermissions(permissions, { origin: new URL(server.url).origin });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(new URL(query, server.url).href);
    await page.waitForFunction(() => window.attentionLab && document.querySelector('svg[data-stage="weights"]'));
    return { page, problems };
  }

  return {
    url: server.url,
    open,
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      await server.close();
    },
  };
}

/** Resolves after the page has had two frames: edits reach the store, then the views. */
export const settle = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * The numbers of a stage's figure as nested arrays (B, R, C), from the cells' data-value.
 * figure: extra attribute filters, e.g. { run: 1 } (default the first figure of the stage).
 */
export function stageValues(page, stage, figure = {}) {
  return page.evaluate(([stage, figure]) => {
    const filters = Object.entries(figure).map(([k, v]) => `[data-${k}="${v}"]`).join('');
    const svg = document.querySelector(`svg[data-stage="${stage}"]${filters}`);
    if (!svg) throw new Error(`no figure svg[data-stage="${stage}"]${filters}`);
    const out = [];
    for (const cell of svg.querySelectorAll('.cell[data-value]')) {
      const [b, i, j] = ['batch', 'row', 'col'].map((k) => Number(cell.dataset[k] ?? 0));
      ((out[b] ??= [])[i] ??= [])[j] = Number(cell.dataset.value);
    }
    return out;
  }, [stage, figure]);
}

/** Every number on the page: 'stage|head|run|param|batch|row|col' -> data-value. */
export function allValues(page) {
  return page.evaluate(() => {
    const map = {};
    for (const svg of document.querySelectorAll('svg[data-stage]')) {
      const f = svg.dataset;
      for (const cell of svg.querySelectorAll('[data-value]')) {
        const c = cell.dataset;
        map[[f.stage, f.head, f.run, f.param, c.batch, c.row, c.col].join('|')] = c.value;
      }
    }
    return map;
  });
}

/** The largest |a - b| over two nested arrays of the same shape, with where it is (for messages). */
export function worstDifference(actual, expected, path = []) {
  if (!Array.isArray(expected)) return { diff: Math.abs(actual - expected), at: path, actual, expected };
  let worst = { diff: 0, at: path };
  expected.forEach((e, k) => {
    const w = worstDifference(actual?.[k], e, [...path, k]);
    if (!(w.diff <= worst.diff)) worst = w; // NaN (a missing cell) counts as the worst
  });
  return worst;
}
