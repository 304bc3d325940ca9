// Pages for the embedding tests in real Chromium. Each test writes its own small HTML page into a
// temporary folder whose web/ links to the repository's web/ — the raw sources, with no bundler
// and no import map, exactly as a plain page loads the package — served and opened through
// browser.js. Every page records console errors, page errors and the URLs it requested.
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBrowser } from './browser.js';
import { settle } from './figures.js';

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
  const root = folder ?? (await mkdtemp(join(tmpdir(), 'attnlab-embed-')));
  if (!folder) {
    for (const [name, target] of Object.entries({ web: WEB, ...links })) await symlink(target, join(root, name));
    await writeFile(join(root, 'index.html'), '<!doctype html><title>attention-lab embedding tests</title>');
  }
  const browser = await startBrowser(root);
  const elementsDefined = () => customElements.get('attn-figure') && customElements.get('attn-heatmap');
  return {
    url: browser.url,
    root,
    write: (name, html) => writeFile(join(root, name), html),
    /** wait: until the elements are defined (default). */
    open: (name, { viewport = { width: 1000, height: 800 }, wait = true, ...options } = {}) =>
      browser.open(name, { viewport, ...options, ready: wait ? elementsDefined : null }),
    async close() {
      await browser.close();
      if (!folder) await rm(root, { recursive: true, force: true });
    },
  };
}

/** Resolves once the element `selector` has rendered (its shadow root holds a data-stage figure). */
export function rendered(page, selector, stage = null) {
  return page.waitForFunction(
    ([sel, st]) => {
      const root = document.querySelector(sel)?.shadowRoot;
      return Boolean(root?.querySelector(st ? `svg[data-stage="${st}"]` : 'svg[data-stage]'));
    },
    [selector, stage],
  );
}

/** URLs of the .wasm files a page requested. */
export const wasmRequests = (requests) => requests.filter((url) => new URL(url).pathname.endsWith('.wasm'));

/**
 * Draws every <attn-figure> and <attn-heatmap> on the page (each draws only once near the
 * viewport): brings the first one not yet drawn into view, waits two frames, and again until all
 * have drawn. Scrolling by a fixed step with a fixed wait missed figures on a loaded machine: the
 * page's IntersectionObserver looks at a frame, and a figure in view only between two frames was
 * never seen. Throws after `timeout` ms naming how many never drew.
 */
export async function drawAllFigures(page, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const undrawn = await page.evaluate(() => {
      const waiting = [...document.querySelectorAll('attn-figure, attn-heatmap')].filter((el) => !el.shadowRoot?.querySelector('svg[data-stage]'));
      waiting[0]?.scrollIntoView({ block: 'center' });
      return waiting.length;
    });
    if (undrawn === 0) return;
    await settle(page);
    if (Date.now() > deadline) throw new Error(`drawAllFigures: ${undrawn} figures had not drawn after ${timeout} ms`);
    await page.waitForTimeout(20);
  }
}

/** The text of the file the element's Export -> HTML downloads. */
export async function savedHtml(page, selector) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.evaluate((sel) => document.querySelector(sel).shadowRoot.querySelector('[data-export="html"]').click(), selector),
  ]);
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
}
