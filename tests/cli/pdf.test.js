// --format pdf through Chromium's printing, read back with tests/cli/pdf.js: one page the size of
// the figure, every cell a vector rectangle filled with the SVG's colour for it (no image in the
// file), the labels and the title as text, the document titled. The SVG the same command writes is
// the reference: the PDF must show what the SVG shows.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeNpy } from '../../web/io/index.js';
import { INDUCTION, induction } from './expected.js';
import { readPdf } from './pdf.js';
import { runCli } from './run.js';
import { findAll, parseXml } from './xml.js';

const PT_PER_PX = 0.75; // 72 pt an inch, 96 CSS px an inch
// Skia writes colours with 4 decimals: 0.00005 of 255 is 0.013 of an 8-bit step.
const COLOUR_STEPS = 0.02;
let dir;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'attnlab-cli-pdf-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** -> { svg (the parsed SVG root), pdf (readPdf's), stderr, ms } of the same figure as SVG and as PDF. */
async function both(args, name) {
  const svgOut = join(dir, `${name}.svg`);
  const pdfOut = join(dir, `${name}.pdf`);
  expect((await runCli(['figure', ...args, '--quiet', '-o', svgOut])).code).toBe(0);
  const { code, stdout, stderr, ms } = await runCli(['figure', ...args, '-o', pdfOut], { timeout: 60_000 });
  expect(stdout).toBe('');
  expect(code, stderr).toBe(0);
  return { svg: parseXml(await readFile(svgOut, 'utf8')), pdf: readPdf(await readFile(pdfOut)), stderr, ms, pdfOut };
}

/** The fill of each filled shape of a page's content (a rectangle, `re f`, or a rounded cell's path, `... h f`), in order, as [r, g, b] in 0..255. */
function filledRectangles(content) {
  let colour = null;
  const fills = [];
  for (const m of content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg\b|(?:\bre|\bh)\s+f\*?(?=\s|$)/g)) {
    if (m[1] !== undefined) colour = [m[1], m[2], m[3]].map((c) => Number(c) * 255);
    else fills.push(colour);
  }
  return fills;
}

/**
 * The largest difference, in 8-bit steps, between the SVG's cell fills (#rrggbb, in order) and the
 * PDF's filled shapes, where the cells' run lies among them: the PDF may draw other fills (the
 * background, the colour bar and its frame) before the cells, so the run is found by trying each
 * start and keeping the closest.
 */
function worstFill(svgRoot, fills) {
  const cells = findAll(svgRoot, (n) => 'data-value' in n.attrs && /^#[0-9a-f]{6}$/.test(n.attrs.fill ?? ''));
  expect(cells.length).toBeGreaterThan(0);
  expect(fills.length).toBeGreaterThanOrEqual(cells.length);
  const wants = cells.map((cell) => [1, 3, 5].map((i) => parseInt(cell.attrs.fill.slice(i, i + 2), 16)));
  let best = null;
  for (let start = 0; start + cells.length <= fills.length; start++) {
    let worst = { diff: 0, start };
    wants.forEach((want, k) => {
      const got = fills[start + k];
      const diff = got ? Math.max(...want.map((w, c) => Math.abs(w - got[c]))) : Infinity;
      if (diff > worst.diff) worst = { diff, start, k, want, got };
    });
    if (best === null || worst.diff < best.diff) best = worst;
  }
  return best;
}

describe('attention-lab figure --format pdf', () => {
  it("layer 1, head 2 as a PDF: one page the figure's size, each cell a vector rectangle of its SVG colour, no image, the labels as text", async () => {
    const { tokens } = induction();
    const { svg, pdf, stderr, ms, pdfOut } = await both([INDUCTION, '--index', '1,2'], 'head');
    console.log(`24 x 24 heatmap PDF written in ${(ms / 1000).toFixed(1)} s`);
    expect(stderr).toMatch(new RegExp(`^starting Chromium to draw the PDF\\.\\.\\.\\nwrote ${pdfOut} \\(heatmap, pdf, \\d+ bytes\\)\\n$`));
    expect(pdf.version).toMatch(/^%PDF-1\.\d/);
    expect(pdf.pages).toHaveLength(1);
    const [page] = pdf.pages;
    // Chromium rounds the paper size to its own units: up to about a point larger, never smaller.
    const want = [svg.attrs.width, svg.attrs.height].map((px) => Number(px) * PT_PER_PX);
    page.box.forEach((got, k) => expect(got - want[k], `page side ${k}: ${got} pt for ${want[k]} pt`).toBeGreaterThanOrEqual(-0.01));
    page.box.forEach((got, k) => expect(got - want[k], `page side ${k}: ${got} pt for ${want[k]} pt`).toBeLessThan(1.5));
    expect(pdf.images).toBe(0);
    const cells = findAll(svg, (n) => 'data-value' in n.attrs).length;
    const fills = filledRectangles(page.content);
    expect(fills.length).toBeGreaterThan(cells); // the background, then every cell
    const worst = worstFill(svg, fills);
    expect(worst.diff, JSON.stringify(worst)).toBeLessThan(COLOUR_STEPS);
    const shown = page.texts.join(' ');
    expect(page.texts[0]).toBe('attention[1, 2]');
    for (const token of tokens) expect(page.texts).toContain(token);
    expect(shown.replace(/ /g, '')).toContain('KeysQueries');
    expect(pdf.info).toContain('/Title (attention[1, 2])');
  }, 90_000);

  it("the heads view as a PDF holds every map: L*H*T*T cell rectangles in the SVG's colours, its layer and head labels as text", async () => {
    const [L, H, T] = induction().shape;
    const { svg, pdf } = await both([INDUCTION, '--view', 'heads', '--title', 'induction heads'], 'heads');
    const fills = filledRectangles(pdf.pages[0].content);
    expect(fills.length).toBeGreaterThan(L * H * T * T);
    const worst = worstFill(svg, fills);
    expect(worst.diff, JSON.stringify(worst)).toBeLessThan(COLOUR_STEPS);
    const svgTexts = findAll(svg, (n) => n.tag === 'text').map((n) => n.text);
    expect(pdf.pages[0].texts).toEqual(svgTexts);
    expect(pdf.info).toContain('/Title (induction heads)');
  }, 90_000);

  it('a figure taller than a PDF page (200 inches) exits 1 at once saying to write SVG', async () => {
    const file = join(dir, 'tall.npy');
    await writeFile(file, writeNpy({ data: new Float32Array(20_000), shape: [20_000, 1] }));
    const { code, stderr, ms } = await runCli(['figure', file, '-o', join(dir, 'tall.pdf')], { timeout: 30_000 });
    expect(stderr).toMatch(
      /^attention-lab: the figure is \d+ x 280062 px; a PDF page holds at most 19200 px \(200 inches\) a side: write SVG \(--format svg\)/,
    );
    expect(stderr).not.toContain('starting Chromium');
    expect(code).toBe(1);
    expect(ms).toBeLessThan(5000);
  }, 30_000);
});
