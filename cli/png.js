// A PNG of a static SVG figure, drawn by the system Chromium through playwright-core when both are
// there (playwright-core is a development dependency: an installed package usually has neither,
// and then the user is told to write SVG instead). Nothing is downloaded.
import { existsSync } from 'node:fs';
import { InputError } from './errors.js';

const CHROMIUM = process.env.ATTENTION_LAB_CHROMIUM || '/usr/bin/chromium';
const NEEDS = 'PNG needs Chromium; write SVG instead (--format svg)';
// Chromium's largest texture side, in device pixels: a taller screenshot waits for a stable
// element until its 30 s timeout instead of failing.
const MAX_SIDE = 16384;

/** -> the PNG bytes of the SVG `{ chunks, width, height }` at device scale `scale` (2: sharp in a printed paper). */
export async function renderPng({ chunks, width, height }, { scale = 2 } = {}) {
  const side = Math.floor(MAX_SIDE / scale);
  if (width > side || height > side) {
    throw new InputError(`the figure is ${Math.ceil(width)} x ${Math.ceil(height)} px; a PNG at ${scale}x holds at most ${side} px a side (Chromium's limit): write SVG (--format svg), or choose fewer cells with --index`);
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    throw new InputError(`${NEEDS} (playwright-core is not installed)`);
  }
  if (!existsSync(CHROMIUM)) throw new InputError(`${NEEDS} (no browser at ${CHROMIUM}; set ATTENTION_LAB_CHROMIUM)`);
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage({ deviceScaleFactor: scale });
    // Every request is refused: the SVG is drawn from its own text.
    await page.route('**', (route) => route.abort());
    await page.setContent(`<!doctype html><body style="margin:0">${chunks.join('')}</body>`);
    return await page.locator('svg').first().screenshot({ type: 'png', omitBackground: false });
  } catch (error) {
    throw new InputError(`PNG: Chromium could not draw the figure (${error.message.split('\n')[0]}); write SVG instead (--format svg)`);
  } finally {
    await browser?.close();
  }
}
