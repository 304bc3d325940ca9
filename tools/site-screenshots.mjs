// Screenshots of the built explorer in real Chromium, for looking at the design:
//   node tools/site-screenshots.mjs [--out DIR] [--query '?preset=d2l'] [--name seed-004]
// Desktop 1280x900 and phone 390x844, light and dark, full page (--at SELECTOR: the viewport
// scrolled to it; --only phone|desktop|dark|light|phone-dark...); prints the PNG paths and any
// console error or page error (and exits 1 if there was one). Needs dist/site/ (npm run build:site).
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { startServer } from './static-server.mjs';

const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const out = resolve(option('--out', fileURLToPath(new URL('../tests/artifacts/site/', import.meta.url))));
const query = option('--query', '');
const name = option('--name', 'default');
const at = option('--at', null); // a selector to scroll to; then only the viewport is shot
const fullPage = !at && !process.argv.includes('--viewport-only');
const only = option('--only', null); // e.g. 'phone' or 'desktop-dark'
await mkdir(out, { recursive: true });

const server = await startServer(fileURLToPath(new URL('../dist/site/', import.meta.url)));
const browser = await launchChromium();
const problems = [];
try {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const scheme of ['light', 'dark']) {
      if (only && !`${viewportName}-${scheme}`.includes(only)) continue;
      const page = await browser.newPage({ viewport, colorScheme: scheme, deviceScaleFactor: 1 });
      page.on('console', (m) => m.type() === 'error' && problems.push(`${viewportName}/${scheme} console: ${m.text()}`));
      page.on('pageerror', (e) => problems.push(`${viewportName}/${scheme} pageerror: ${e.message}`));
      const started = Date.now();
      await page.goto(server.url + query);
      await page.waitForSelector('[data-stage="weights"], .error-box', { timeout: 15000 });
      const ms = Date.now() - started;
      await page.evaluate(() => document.fonts.ready);
      if (at) await page.locator(at).first().scrollIntoViewIfNeeded();
      const file = join(out, `${name}-${viewportName}-${scheme}.png`);
      await page.screenshot({ path: file, fullPage });
      console.log(`${file}  (weights shown after ${ms} ms)`);
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
for (const p of problems) console.error(p);
process.exit(problems.length ? 1 : 0);
