// A PDF of a static SVG figure through Chromium's printing (chromium.js): one page the size of the
// figure, its cells and colour bar as vector fills and its labels as text (no raster image), the
// document titled with the figure's title.
import { drawInChromium } from './chromium.js';
import { InputError } from './errors.js';

// 200 inches at 96 CSS px an inch: the largest page PDF readers display (Acrobat's 14,400 pt).
const MAX_SIDE = 19200;

/** -> the PDF bytes of the SVG `{ chunks, width, height }`; `say(line)` reports progress. */
export async function renderPdf(svg, { title, say }) {
  if (svg.width > MAX_SIDE || svg.height > MAX_SIDE) {
    throw new InputError(
      `the figure is ${Math.ceil(svg.width)} x ${Math.ceil(svg.height)} px; a PDF page holds at most ${MAX_SIDE} px (200 inches) a side: write SVG (--format svg), or choose fewer cells with --index`,
    );
  }
  return drawInChromium(svg, { format: 'PDF', title, say }, (page) =>
    page.pdf({
      width: `${svg.width}px`,
      height: `${svg.height}px`,
      margin: { top: 0, right: 0, bottom: 0, left: 0 },
      printBackground: true,
      pageRanges: '1', // a rounding of the page size to points must not spill a blank second page
    }),
  );
}
