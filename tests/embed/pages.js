// Pages for the embedding tests in real Chromium. Each test writes its own small HTML page into a
// temporary folder whose web/ links to the repository's web/ — the raw sources, with no bundler
// and no import map, exactly as a plain page loads the package — served by startServer() on a
// free loopback port. Every page records console errors, page errors and the URLs it requested.
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tools/chromium.mjs';
import { startServer } from '../../tools/static-server.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));

/** A page around `body`, loading the elements from the linked sources. */
export function elementsPage(body, { head = '' } = {}) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}</head>
<body>${body}
<script type="module" src="./web/elements/index.js"></script>
</body></html>`;
}

/**
 * Starts a server and a browser. The server serves `folder` as it is, or (by default) a fresh
 * temporary folder holding links: web/ -> the repository's web/, plus `links` ({ name: path }).
 * -> { url, root, write(name, html), open(name, options) -> { page, problems, requests }, close() }.
 */
export async function startPages({ folder = null, links = {} } = {}) {
  const root = folder ?? await mkdtemp(join(tmpdir(), 'attnlab-embed-'));
  if (!folder) {
    for (const [name, target] of Object.entries({ web: WEB, ...links })) await symlink(target, join(root, name));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>attention-lab embedding tests</title>');
  }
  const server = await startServer(root);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const contexts = [];

  async function open(name, { viewport = { width: 1000, height: 800 }, colorScheme = 'light', wait = true } = {}) {
    const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const problems = [];
    const requests = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(new URL(name, server.url).href);
    if (wait) await page.waitForFunction(() => customElements.get('attn-figure') && customElements.get('attn-heatmap'));
    return { page, problems, requests };
  }

  return {
    url: server.url,
    root,
    write: (name, html) => writeFile(join(root, name), html),
    open,
    async close() {
      for (const context of contexts) await context.close();
      await browser.close();
      await server.close();
      if (!folder) await rm(root, { recursive: true, force: true });
    },
  };
}

/** Resolves once the element `selector` has rendered (its shadow root holds a data-stage figure). */
export function rendered(page, selector, stage = null) {
  return page.waitForFunction(([sel, st]) => {
    const root = document.querySelector(sel)?.shadowRoot;
    return Boolean(root?.querySelector(st ? `svg[data-stage="${st}"]` : 'svg[data-stage]'));
  }, [selector, stage]);
}

/**
 * The numbers of a stage's figure inside an element's shadow root, as nested arrays (B, R, C)
 * from the cells' data-value. figure: extra attribute filters such as { run: 1 }.
 */
export function shadowStageValues(page, selector, stage, figure = {}) {
  return page.evaluate(([sel, st, fig]) => {
    const filters = Object.entries(fig).map(([k, v]) => `[data-${k}="${v}"]`).join('');
    const svg = document.querySelector(sel).shadowRoot.querySelector(`svg[data-stage="${st}"]${filters}`);
    if (!svg) throw new Error(`${sel}: no figure svg[data-stage="${st}"]${filters} in its shadow root`);
    const out = [];
    for (const cell of svg.querySelectorAll('[data-value][data-row]')) {
      const [b, i, j] = ['batch', 'row', 'col'].map((k) => Number(cell.dataset[k] ?? 0));
      ((out[b] ??= [])[i] ??= [])[j] = Number(cell.dataset.value);
    }
    return out;
  }, [selector, stage, figure]);
}

/** URLs of the .wasm files a page requested. */
export const wasmRequests = (requests) => requests.filter((url) => new URL(url).pathname.endsWith('.wasm'));
