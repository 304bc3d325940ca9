// One figure as ONE self-contained .html file that opens from file:// with no network: the
// element (<attn-heatmap>, <attn-heads> or a computing <attn-figure>) with its data inline, and
// every file it loads packed into the page:
//   1. the package's own ES modules the element reaches (module-text.js reads their imports), with
//      relative specifiers and import.meta.url rewritten to virtual URLs 'attention-lab:/web/...',
//      whole-line comments dropped; figures.css; for <attn-figure> and <attn-training> the SIMD
//      core's glue and .wasm (and <attn-training>'s stored run); in zh-CN, zh-CN's words (which a
//      page in English loads on demand, web/i18n/languages.js)
//   2. packed into one archive (a JSON index line, then the files' bytes), gzipped, in base64
//   3. a small classic script (standalone-boot.js) that inflates it (DecompressionStream), maps every
//      virtual module URL to a data: URL in an import map, answers fetch() of the virtual URLs
//      (figures.css, the .wasm) from the archive, and imports the elements' entry.
// No module is fetched from disk: Chromium refuses module scripts from file:// (opaque origin),
// data: URLs it accepts. A figure saved from a standalone file reads the same archive, so a saved
// file can save again.
//
//   standaloneHtml(spec, { read }?) -> Promise<string>
//     spec.element     'attn-figure' | 'attn-heatmap' | 'attn-heads' | 'attn-training'
//     spec.attributes  { name: string | number | true } (false/null/undefined: left out); no src
//     spec.data        the child <script type="application/json"> (an explorer state, weights ...)
//     spec.title       the page's title
//     read(path)       -> Promise<Uint8Array | string> of a package file ('web/figures/dom.js'); by
//                      default read beside this module (fetch, or the file system in Node). An app
//                      whose bundler moved the sources passes its own (the explorer does).

import { replaceSpecifiers, specifiersIn, withoutCommentLines } from './module-text.js';
import { figureLang, figureMessage } from '../../i18n/figure-text.js';
import { WORD_FILES, loadLanguage } from '../../i18n/languages.js';

const SCHEME = 'attention-lab:';
const ROOT = `${SCHEME}/`;
// From this file (web/figures/export/) to the package root. In a variable: the layout and size
// tools read new URL('<literal>', import.meta.url) as an asset to ship.
const TO_ROOT = '../../../';

const META_URL = /\bimport\.meta\.url\b/g;

const ELEMENTS = ['attn-figure', 'attn-heatmap', 'attn-heads', 'attn-training'];
const ENTRY = 'web/elements/index.js';
// What every file holds: the elements, their styles, their SVG/PNG export and this module (to save again).
const BOOT = 'web/figures/export/standalone-boot.js';
const COMMON = [ENTRY, BOOT, 'web/figures/figures.css', 'web/figures/export/composed-svg.js', 'web/figures/export/standalone-html.js'];
// What each element loads on demand besides (roles.js: its nested() writes the data of a save;
// file-source.js and the worker pool never: a standalone
// file has no file to read and one figure needs no threads).
const ON_DEMAND = {
  'attn-heatmap': ['web/model/roles.js', 'web/figures/heatmap-or-canvas.js'],
  'attn-heads': ['web/model/roles.js', 'web/figures/heads.js'],
  // The SIMD build only: every current browser validates simd128 (a browser without it shows the
  // loader's error in the figure). What a figure loads only when it shows it: the backward pass and
  // its stages, the heatmap and links views, the editing code, its preset (index.js brings every one).
  'attn-figure': [
    'web/elements/runtime.js',
    'web/src/index.js',
    'web/model/compute/backward.js',
    'web/model/stages/backward.js',
    'web/figures/pipeline/gallery.js',
    'web/model/state/edit.js',
    'web/figures/interact/cell-editor.js',
    'web/figures/interact/scrub.js',
    'web/model/presets/index.js',
    'web/wasm/attention-simd.js',
    'web/wasm/attention-simd.wasm',
  ],
  // Training on the page's thread (a worker cannot import the file's packed modules), and the
  // stored run it shows under reduced motion.
  'attn-training': [
    'web/elements/training-view.js',
    'web/elements/training-run.json',
    'web/model/train/driver.js',
    'web/src/index.js',
    'web/wasm/attention-simd.js',
    'web/wasm/attention-simd.wasm',
  ],
};

const NODE_FS = 'node:fs/promises'; // in a variable, so bundlers for the browser leave it alone
const isNode = () => typeof globalThis.process?.versions?.node === 'string' && typeof globalThis.document === 'undefined';

/** The package file at `path` beside this module. */
async function readBeside(path) {
  const url = new URL(path, new URL(TO_ROOT, import.meta.url));
  if (url.protocol === 'file:' && isNode()) {
    const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_FS);
    return new Uint8Array(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`standaloneHtml: reading ${url} failed with HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** A module's path from a specifier in the module at `from` (relative, or already virtual). */
function pathOf(spec, from) {
  const url = new URL(spec, ROOT + from).href;
  return url.startsWith(ROOT) ? url.slice(ROOT.length) : null;
}

/** -> Map<path, Uint8Array>: the files from `roots` and every module they import statically, shipped form. */
async function packageFiles(roots, read) {
  const files = new Map();
  const pending = new Map();
  const encoder = new TextEncoder();
  const visit = (path) => {
    if (!pending.has(path)) pending.set(path, load(path));
    return pending.get(path);
  };
  const load = async (path) => {
    let bytes = await read(path);
    if (typeof bytes === 'string') bytes = encoder.encode(bytes);
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`standaloneHtml: read('${path}') must give a Uint8Array or a string`);
    if (!path.endsWith('.js')) {
      files.set(path, bytes);
      return;
    }
    const text = new TextDecoder().decode(bytes);
    const statics = specifiersIn(text).filter((s) => s.kind === 'static' && (s.spec.startsWith('.') || s.spec.startsWith(SCHEME)));
    const shipped = replaceSpecifiers(withoutCommentLines(text), (spec) => (spec.startsWith('.') ? ROOT + pathOf(spec, path) : spec)).replace(
      META_URL,
      JSON.stringify(ROOT + path),
    );
    files.set(path, encoder.encode(shipped));
    await Promise.all(statics.map((s) => visit(pathOf(s.spec, path))));
  };
  await Promise.all(roots.map(visit));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The archive: a JSON line [[path, bytes], ...], then the files' bytes, gzipped. */
async function packed(files) {
  const index = new TextEncoder().encode(`${JSON.stringify([...files].map(([path, bytes]) => [path, bytes.length]))}\n`);
  const stream = new Blob([index, ...files.values()]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64(bytes) {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

const escapeHtml = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** JSON for a <script> element: typed arrays as arrays, '<' escaped (no '</script>' inside). */
function scriptJson(data) {
  const text = JSON.stringify(data, (key, value) => {
    if (ArrayBuffer.isView(value)) return Array.from(value);
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new RangeError(`standaloneHtml: spec.data holds ${value}${key ? ` at '${key}'` : ''}, which JSON cannot carry`);
    return value;
  });
  if (text === undefined) throw new TypeError('standaloneHtml: spec.data must be JSON data (an object or an array)');
  return text.replace(/</g, '\\u003c');
}

/** The element's start tag from spec.attributes, checked. */
function startTag(element, attributes) {
  if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
    throw new TypeError(`standaloneHtml: spec.attributes must be an object { name: value }, got ${JSON.stringify(attributes)}`);
  }
  let tag = `<${element}`;
  for (const name of Object.keys(attributes)) {
    const value = attributes[name];
    if (!/^[a-z][a-z0-9-]*$/.test(name))
      throw new TypeError(`standaloneHtml: spec.attributes: '${name}' is not an attribute name (lowercase letters, digits, '-')`);
    if (name === 'src') throw new TypeError('standaloneHtml: spec.attributes.src: a standalone file reads no other file; pass what it shows as spec.data');
    if (value === false || value === null || value === undefined) continue;
    if (value !== true && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
      throw new TypeError(`standaloneHtml: spec.attributes.${name} must be a string, a finite number or a boolean, got ${typeof value}`);
    }
    tag += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
  }
  return `${tag}>`;
}

const PAGE_STYLE = `body{margin:24px auto;max-width:1100px;padding:0 16px;font:15px/1.5 ui-sans-serif,system-ui,sans-serif;color-scheme:light dark}
.made{color:GrayText;font-size:12px}`;

/** -> Promise<string>: the text of one self-contained .html file showing spec's element. */
export async function standaloneHtml(spec, { read = readBeside } = {}) {
  if (spec === null || typeof spec !== 'object')
    throw new TypeError(`standaloneHtml: spec must be an object { element, attributes, data, title }, got ${spec}`);
  const { element, attributes = {}, data, title = 'attention-lab figure' } = spec;
  if (!ELEMENTS.includes(element))
    throw new TypeError(`standaloneHtml: spec.element must be one of ${ELEMENTS.map((e) => `'${e}'`).join(', ')}, got ${JSON.stringify(element)}`);
  if (typeof read !== 'function') throw new TypeError('standaloneHtml: read must be a function (path) -> Promise<Uint8Array | string>');
  const tag = startTag(element, attributes);
  // The page speaks the element's language (its lang attribute, English without one).
  const lang = attributes.lang === undefined ? 'en' : figureLang(attributes.lang);
  await loadLanguage(lang);
  const child = data === undefined ? '' : `<script type="application/json">${scriptJson(data)}</script>`;
  const roots = [...COMMON, ...ON_DEMAND[element]];
  let files = await packageFiles(roots, read);
  // The words of the file's language go in too (they load on demand, and the file is offline): each
  // part whose text module the element loads.
  const words = Object.entries(WORD_FILES[lang] ?? {}).flatMap(([text, file]) => (files.has(text) ? [file] : []));
  if (words.length) files = await packageFiles([...roots, ...words], read);
  const boot = new TextDecoder().decode(files.get(BOOT)).replaceAll('</', '<\\/');
  const archive = base64(await packed(files));
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<meta name="generator" content="attention-lab"><style>${PAGE_STYLE}</style></head>
<body>
${tag}${child}</${element}>
<p class="made">${escapeHtml(figureMessage(lang, 'figure.saved-note'))}</p>
<script type="application/octet-stream" id="attention-lab-files">${archive}</script>
<script>${boot}boot(${JSON.stringify(ROOT)}, ${JSON.stringify(ENTRY)}, ${scriptJson(figureMessage(lang, 'figure.could-not-start'))});</script>
</body></html>
`;
}
