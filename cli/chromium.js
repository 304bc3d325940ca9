// The system Chromium, for the formats a browser draws (PNG, and PDF through its printing), through
// playwright-core when both are there (playwright-core is a development dependency: an installed
// package usually has neither, and then the user is told to write SVG instead). Nothing is
// downloaded, and the page holding the figure may fetch nothing.
import { existsSync } from 'node:fs';
import { InputError } from './errors.js';
import { escape } from './markup.js';

const CHROMIUM = process.env.ATTENTION_LAB_CHROMIUM || '/usr/bin/chromium';

/**
 * -> what `draw(page)` returns, `page` holding the SVG `{ chunks }` alone at the top left, with no
 * margin, under the document title `title`, at device scale `scale`. `format` ('PNG', 'PDF') names
 * the output in the messages; `say(line)` tells the user that Chromium is starting (a second or more).
 */
export async function drawInChromium({ chunks }, { format, title, scale = 1, say }, draw) {
  const needs = `${format} needs Chromium; write SVG instead (--format svg)`;
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    throw new InputError(`${needs} (playwright-core is not installed)`);
  }
  if (!existsSync(CHROMIUM)) throw new InputError(`${needs} (no browser at ${CHROMIUM}; set ATTENTION_LAB_CHROMIUM)`);
  say(`starting Chromium to draw the ${format}...`);
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage({ deviceScaleFactor: scale });
    // Every request is refused: the SVG is drawn from its own text.
    await page.route('**', (route) => route.abort());
    await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>html,body{margin:0}svg{display:block}</style></head><body>${chunks.join('')}</body></html>`);
    return await draw(page);
  } catch (error) {
    throw new InputError(`${format}: Chromium could not draw the figure (${error.message.split('\n')[0]}); write SVG instead (--format svg)`);
  } finally {
    await browser?.close();
  }
}
