// A PNG of a static SVG figure, drawn by the system Chromium through playwright-core when both are
// there (playwright-core is a development dependency: an installed package usually has neither,
// and then the user is told to write SVG instead). Nothing is downloaded.
import { existsSync } from 'node:fs';
import { InputError } from './errors.js';

const CHROMIUM = process.env.ATTENTION_LAB_CHROMIUM || '/usr/bin/chromium';
const NEEDS = 'PNG needs Chromium; write SVG instead (--format svg)';

/** -> the PNG bytes of `svg` at device scale `scale` (2: sharp in a printed paper). */
export async function renderPng(svg, { scale = 2 } = {}) {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    throw new InputError(`${NEEDS} (playwright-core is not installed)`);
  }
  if (!existsSync(CHROMIUM)) throw new InputError(`${NEEDS} (no browser at ${CHROMIUM}; set ATTENTION_LAB_CHROMIUM)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ deviceScaleFactor: scale });
    // Every request is refused: the SVG is drawn from its own text.
    await page.route('**', (route) => route.abort());
    await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`);
    return await page.locator('svg').first().screenshot({ type: 'png', omitBackground: false });
  } finally {
    await browser.close();
  }
}
