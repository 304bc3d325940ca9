// The download size of the built explorer (dist/site, `npm run build:site`): every .wasm, .js and
// .css file, raw and gzipped (level 9, what a static server would send), whether the default
// page fetches it (measured: the page is loaded in Chromium and its requests recorded, since
// chunks shared between the site's entries are named by Vite, not by role), and the totals of the
// default page and of everything. Fonts (.woff2, compressed already) are one line: a browser
// fetches only the subsets the text on screen needs.
//   node tools/site-size.mjs [folder]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from './chromium.mjs';
import { startServer } from './static-server.mjs';

const folder = process.argv[2] ?? fileURLToPath(new URL('../dist/site/', import.meta.url));

// What else fetches a file the default page does not, by the names Vite gives them.
const NOTES = [
  [/^attention-scalar-/, 'wasm scalar build: the speed panel, engines without SIMD'],
  [/^attention-relaxed-/, "wasm relaxed-SIMD build: only loadAttention({ simd: 'relaxed' }) (the explorer keeps the SIMD build)"],
  [/^worker-main-.*\.js$|^parallel-.*\.js$/, 'threaded API (not used by the page)'],
  [/^worker-.*\.js$/, 'the speed panel worker'],
];

/** The files (paths relative to the folder) the default page requests until its weights are drawn. */
async function fetchedByDefaultPage() {
  const server = await startServer(folder);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const fetched = new Set();
    page.on('request', (request) => fetched.add(decodeURIComponent(new URL(request.url()).pathname.slice(1))));
    await page.goto(server.url);
    await page.waitForSelector('svg[data-stage="weights"]', { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    return fetched;
  } finally {
    await browser.close();
    await server.close();
  }
}

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const fetched = await fetchedByDefaultPage();
const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(7);
const all = files(folder);
const rows = all
  .filter((f) => /\.(wasm|js|css)$/.test(f))
  .map((path) => {
    const file = relative(folder, path);
    const bytes = readFileSync(path);
    const note = NOTES.find(([pattern]) => pattern.test(file.split('/').pop()))?.[1] ?? '';
    return { file, page: fetched.has(file), note, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => b.page - a.page || b.gzip - a.gzip);

const sum = (list, key) => list.reduce((s, r) => s + r[key], 0);
const width = Math.max(...rows.map((r) => r.file.length), 32);
console.log(`${'file'.padEnd(width)}  raw KiB  gzip KiB  fetched by`);
for (const r of rows)
  console.log(
    `${r.file.padEnd(width)}  ${kb(r.raw)}  ${kb(r.gzip)}   ${r.page ? 'the default page' : r.note || 'other pages of the site (embed, guide) or on demand'}`,
  );
const page = rows.filter((r) => r.page);
console.log(`${'default page (wasm + JS + CSS)'.padEnd(width)}  ${kb(sum(page, 'raw'))}  ${kb(sum(page, 'gzip'))}   ${page.length} files`);
console.log(`${'everything (wasm + JS + CSS)'.padEnd(width)}  ${kb(sum(rows, 'raw'))}  ${kb(sum(rows, 'gzip'))}   ${rows.length} files`);
const fonts = all.filter((f) => f.endsWith('.woff2'));
const pageFonts = fonts.filter((f) => fetched.has(relative(folder, f)));
const size = (list) => kb(list.reduce((s, f) => s + statSync(f).size, 0)).trim();
console.log(`fonts: ${fonts.length} .woff2 files, ${size(fonts)} KiB in all; the default page fetched ${pageFonts.length} of them, ${size(pageFonts)} KiB`);
