// The download size of the built explorer (dist/site, `npm run build:site`): every .wasm, .js and
// .css file, raw and gzipped (level 9, what a static server would send), with what loads it, and
// the totals of the default page and of everything. Fonts (.woff2, compressed already) are listed
// as one line: a browser fetches only the subsets the text on screen needs.
//   node tools/site-size.mjs [folder]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const folder = process.argv[2] ?? fileURLToPath(new URL('../dist/site/', import.meta.url));

// What fetches each file, by the name Vite gives it; `page` files load with the default page.
const ROLES = [
  [/^index-.*\.(js|css)$/, 'the page (JS, CSS with KaTeX)', true],
  [/^loader-.*\.js$/, 'the API (loadAttention)', true],
  [/^attention-simd-/, 'wasm core, SIMD build', true],
  [/^attention-scalar-/, 'wasm core, scalar build (speed panel; engines without SIMD)', false],
  [/^worker-main-.*\.js$|^parallel-.*\.js$/, 'threaded API (not used by the page)', false],
  [/^worker-.*\.js$/, 'speed panel worker', false],
];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(7);
const all = files(folder);
const rows = all.filter((f) => /\.(wasm|js|css)$/.test(f)).map((path) => {
  const name = path.split('/').pop();
  const [, role, page] = ROLES.find(([pattern]) => pattern.test(name)) ?? [null, 'other', false];
  const bytes = readFileSync(path);
  return { file: relative(folder, path), role, page, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}).sort((a, b) => b.page - a.page || b.gzip - a.gzip);

const sum = (list, key) => list.reduce((s, r) => s + r[key], 0);
const width = Math.max(...rows.map((r) => r.file.length));
console.log(`${'file'.padEnd(width)}  raw KiB  gzip KiB  loaded by`);
for (const r of rows) console.log(`${r.file.padEnd(width)}  ${kb(r.raw)}  ${kb(r.gzip)}   ${r.page ? 'default page: ' : ''}${r.role}`);
const page = rows.filter((r) => r.page);
console.log(`${'default page (wasm + JS + CSS)'.padEnd(width)}  ${kb(sum(page, 'raw'))}  ${kb(sum(page, 'gzip'))}`);
console.log(`${'everything (wasm + JS + CSS)'.padEnd(width)}  ${kb(sum(rows, 'raw'))}  ${kb(sum(rows, 'gzip'))}`);
const fonts = all.filter((f) => f.endsWith('.woff2'));
console.log(`fonts: ${fonts.length} .woff2 files, ${kb(fonts.reduce((s, f) => s + statSync(f).size, 0)).trim()} KiB in all (fetched per subset on demand)`);
