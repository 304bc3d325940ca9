// A saved standalone figure opened as a reader would: from file://, with every request other than
// the file itself blocked (and recorded as a problem), console errors recorded too.
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { closedWhenTestEnds } from './browser.js';

/**
 * Writes `text` to `path`, opens it in a new context of `browser` (closed when the test ends) and
 * waits for a drawn figure (or an error the page shows). -> { page, problems, context }
 */
export async function openOffline(browser, path, text) {
  await writeFile(path, text);
  const url = pathToFileURL(path).href;
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
  return { page, problems, context };
}
