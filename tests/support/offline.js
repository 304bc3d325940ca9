// A saved standalone figure opened as a reader would: from file://, with every request other than
// the file itself blocked (and recorded as a problem), console errors recorded too.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onTestFinished } from 'vitest';
import { closedWhenTestEnds, sharedChromium } from './browser.js';

/**
 * Writes `text` as the file `name` in a temporary folder of the test's own (removed when the test
 * ends), opens it in a new context of the process's Chromium (closed when the test ends) and waits
 * for a drawn figure (or an error the page shows). -> { page, problems, context, path }
 */
export async function openOffline(name, text) {
  const folder = await mkdtemp(join(tmpdir(), 'attnlab-offline-'));
  onTestFinished(() => rm(folder, { recursive: true, force: true }));
  const path = join(folder, name);
  await writeFile(path, text);
  const url = pathToFileURL(path).href;
  const browser = await sharedChromium();
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1, acceptDownloads: true });
  closedWhenTestEnds(context);
  const page = await context.newPage();
  const problems = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    problems.push(`request outside the file: ${route.request().url()}`);
    return route.abort();
  });
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForFunction(() => {
    const element = document.querySelector('attn-figure, attn-heatmap, attn-heads, attn-training');
    return (
      element?.shadowRoot?.querySelector('[data-stage], canvas') ||
      element?.shadowRoot?.querySelector('.status')?.textContent ||
      document.querySelector('[role=alert]')
    );
  });
  return { page, problems, context, path };
}
