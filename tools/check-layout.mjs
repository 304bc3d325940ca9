// The direction of imports between the web folders, read from the sources as a browser follows
// them (module-graph.mjs: static imports, literal import() and new URL(..., import.meta.url) assets):
//   layers    web/src (the API; web/io beside it) -> web/model (example state, presets, compute,
//             stage data) -> web/figures -> web/elements -> web/site (the app). A file imports from
//             its own folder and those before it, never one after it. web/i18n (the message
//             catalogs) sits at the model's level and imports nothing but itself.
//   web/src   boundary/ (wasm memory, records, checks) -> ops/ -> api.js -> threads/ -> the
//             entries index.js and worker.js.
//   web/model no DOM and no KaTeX: no bare import at all, no document, window., custom elements
//             (web/i18n the same: the caller says which language).
//   web/measure the measuring code (timing, the ceiling probe, the plain-JS baseline) that the
//             speed panel and tools/bench share: imports nothing but itself, touches no DOM.
//   tools/    web code never imports it; tools may import web code but never web/site (the app).
//   cli/ bin/ the command line uses the package as a user does: it imports (statically or by
//             import()) only the package's public entry files (package.json exports) and its own
//             folders (bin/ may import cli/), never a module behind an entry.
//   package   every module a package.json export reaches is in `files`, and `files` ships nothing
//             under web/site.
// Each problem is one line, `file -> spec` with the rule it breaks; paths are from the root.
//   node tools/check-layout.mjs [--root DIR]   (exits 1 when there is any problem)
//   checkLayout(root) -> string[]              (tests/js/tools/layout.test.js)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeOf, moduleGraph, specifiers } from './module-graph.mjs';

// Each web folder and the folders it may import from (web/wasm holds the Emscripten glue that only
// the loader fetches). web/io sits beside web/src: it may use the API's helpers, the API never reads
// files. web/measure (timing and the ceiling probe) stands alone, so that the app's speed panel and
// the bench share it. The app may import any web folder and the examples' data, never tools/.
const MAY_IMPORT = {
  'web/measure': ['web/measure'],
  'web/src': ['web/src', 'web/wasm'],
  'web/io': ['web/io', 'web/src'],
  'web/i18n': ['web/i18n'],
  'web/model': ['web/model', 'web/src', 'web/io', 'web/i18n'],
  'web/figures': ['web/figures', 'web/model', 'web/src', 'web/io', 'web/i18n'],
  'web/elements': ['web/elements', 'web/figures', 'web/model', 'web/src', 'web/io', 'web/i18n'],
  'web/site': ['web', 'examples'],
};
// Inside web/src, bottom to top: a file imports only from its own rank and those below. api.js
// (the synchronous API object over the ops) sits below threads/, whose workers and inline calls
// use it; the entries index.js and worker.js sit on top.
const SRC_RANKS = [['web/src/boundary'], ['web/src/ops'], ['web/src/api.js'], ['web/src/threads'], ['web/src/index.js', 'web/src/worker.js']];
// The folders whose modules touch no DOM and import no package: the model, the catalogs, the measuring code.
const NO_DOM = ['web/model', 'web/i18n', 'web/measure'];
// What a model module must not touch: the DOM (a figure's job) and the page's globals.
const DOM =
  /\b(?:document|window|globalThis\.document)\s*\.|\b(?:customElements|HTMLElement|SVGElement|getComputedStyle|requestAnimationFrame|matchMedia|localStorage|sessionStorage|navigator)\b/;
// String literals, blanked before looking for DOM names ('./sliding-window.js' is no window.).
const STRINGS = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

const posix = (path) => path.split(sep).join('/');
const within = (path, folder) => path === folder || path.startsWith(`${folder}/`);
const folderOf = (path, folders) => folders.find((f) => within(path, f));
const srcRank = (path) => SRC_RANKS.findIndex((rank) => rank.some((f) => within(path, f)));

function sourcesUnder(root, folder) {
  const found = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.m?js$/.test(name)) found.push(path);
    }
  };
  walk(join(root, folder));
  return found.sort();
}

/** The problems of one web file's imports against MAY_IMPORT, SRC_RANKS and the model's rules. */
function fileProblems(root, file) {
  const from = posix(relative(root, file));
  const layer = folderOf(from, Object.keys(MAY_IMPORT));
  const problems = [];
  const say = (spec, why) => problems.push(`${from} -> ${spec} (${why})`);
  for (const { spec, kind } of specifiers(file)) {
    if (spec.startsWith('node:') || /^[a-z]+:/.test(spec)) continue;
    if (!spec.startsWith('.') && kind !== 'asset') {
      if (NO_DOM.includes(layer)) say(spec, `${layer} imports no package: no DOM, no KaTeX`);
      continue;
    }
    const to = posix(relative(root, resolve(dirname(file), spec)));
    if (to.startsWith('tools/')) {
      say(spec, 'web code never imports tools/');
      continue;
    }
    if (!MAY_IMPORT[layer].some((folder) => within(to, folder))) {
      say(spec, `${layer} may import only ${MAY_IMPORT[layer].join(', ')}`);
      continue;
    }
    const [mine, theirs] = [from, to].map(srcRank);
    if (mine >= 0 && theirs > mine) say(spec, `web/src: ${SRC_RANKS.map((r) => r.map((f) => f.slice('web/src/'.length)).join(' ')).join(' -> ')}`);
  }
  if (NO_DOM.includes(layer)) {
    const touch = codeOf(file).replace(STRINGS, "''").match(DOM);
    if (touch) say(touch[0].replace(/\s*\.$/, ''), `${layer} touches no DOM`);
  }
  return problems;
}

/**
 * The problems of one tool's imports: a tool (tools/**) never imports the app (web/site); what it
 * shares with the app lives below it (web/measure). A spec starting with '/' is from the root (a
 * page served from it, as tools/chromium.mjs does).
 */
function toolProblems(root, file) {
  const from = posix(relative(root, file));
  const problems = [];
  for (const { spec } of specifiers(file)) {
    if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
    const to = posix(spec.startsWith('/') ? spec.slice(1) : relative(root, resolve(dirname(file), spec)));
    if (within(to, 'web/site')) problems.push(`${from} -> ${spec} (a tool never imports web/site, the app: share code through web/measure or the package)`);
  }
  return problems;
}

// The command line's folders and those each may import besides the package's public entries.
const CLI_MAY_IMPORT = { cli: ['cli'], bin: ['bin', 'cli'] };

/** The package's public entry files (package.json exports' JS targets), root-relative. */
function entryFiles(pkg) {
  return Object.values(pkg.exports ?? {})
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => file.replace(/^\.\//, ''));
}

/**
 * The problems of one command-line file's imports: a relative import reaches only its own folders
 * or a public entry file. Packages (playwright-core, node:*) are the user's to install; an asset URL
 * (new URL('..', import.meta.url), a folder named in a message) is no import.
 */
function cliProblems(root, file, entries) {
  const from = posix(relative(root, file));
  const folder = folderOf(from, Object.keys(CLI_MAY_IMPORT));
  const problems = [];
  for (const { spec, kind } of specifiers(file)) {
    if (kind === 'asset' || !spec.startsWith('.')) continue;
    const to = posix(relative(root, resolve(dirname(file), spec)));
    if (CLI_MAY_IMPORT[folder].some((f) => within(to, f)) || entries.includes(to)) continue;
    problems.push(
      `${from} -> ${spec} (${folder}/ imports only ${CLI_MAY_IMPORT[folder].map((f) => `${f}/`).join(', ')} and the package's entries, package.json exports)`,
    );
  }
  return problems;
}

/** `files` of package.json as a test of a root-relative path (directories, `*` and `**` globs, `!` exclusions). */
function shippedBy(files) {
  const rules = files.map((pattern) => {
    const negated = pattern.startsWith('!');
    const glob = pattern
      .replace(/^!/, '')
      .replace(/^\.?\//, '')
      .replace(/\/$/, '');
    const body = glob
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*');
    return { negated, test: new RegExp(`^${body}(?:/.*)?$`) };
  });
  return (path) => {
    let shipped = path === 'package.json' || /^(?:README|LICENSE|LICENCE)(?:\.[^/]*)?$/i.test(path); // npm always packs these
    for (const { negated, test } of rules) if (test.test(path)) shipped = !negated;
    return shipped;
  };
}

/** The package's problems: `files` naming web/site, and exports reaching a module `files` does not ship. */
function packageProblems(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const files = pkg.files ?? [];
  const shipped = shippedBy(files);
  const problems = [];
  for (const pattern of files) {
    if (/^!/.test(pattern)) continue;
    const path = pattern.replace(/^\.?\//, '');
    if (path.startsWith('web/site') || 'web/site/'.startsWith(`${path.replace(/\/$/, '')}/`)) {
      problems.push(`package.json files -> ${pattern} (ships web/site, the app)`);
    }
  }
  for (const site of sourcesUnder(root, 'web/site').map((f) => posix(relative(root, f)))) {
    if (shipped(site) && !problems.some((p) => p.includes('package.json files'))) problems.push(`package.json files -> ${site} (ships web/site, the app)`);
  }
  // The imports that leave the shipped files, each with the entries that reach it.
  const leaving = new Map(); // 'from -> spec' -> [entry]
  for (const [entry, target] of Object.entries(pkg.exports ?? {})) {
    const file = typeof target === 'string' ? target : target.default;
    if (!shipped(posix(file.replace(/^\.\//, ''))))
      problems.push(`package.json exports -> ${entry} (${file.replace(/^\.\//, '')}: package.json files does not ship it)`);
    if (!/\.m?js$/.test(file)) continue;
    for (const { from, spec, to } of moduleGraph(join(root, file)).edges.values()) {
      const [source, reached] = [from, to].map((path) => posix(relative(root, path)));
      if (!shipped(source) || shipped(reached)) continue;
      const edge = `${source} -> ${spec}`;
      leaving.set(edge, [...(leaving.get(edge) ?? []), entry]);
    }
  }
  for (const [edge, entries] of leaving) problems.push(`${edge} (package entry ${entries.join(', ')} reaches a file package.json files does not ship)`);
  return problems;
}

/** Every problem of the layout under `root`, one line each (none: the arrows point one way). */
export function checkLayout(root) {
  const problems = [];
  for (const layer of Object.keys(MAY_IMPORT)) {
    for (const file of sourcesUnder(root, layer)) problems.push(...fileProblems(root, file));
  }
  for (const file of sourcesUnder(root, 'tools')) problems.push(...toolProblems(root, file));
  const entries = entryFiles(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
  for (const folder of Object.keys(CLI_MAY_IMPORT)) {
    for (const file of sourcesUnder(root, folder)) problems.push(...cliProblems(root, file, entries));
  }
  return [...new Set([...problems, ...packageProblems(root)])];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = at > 0 ? resolve(process.argv[at + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkLayout(root);
  for (const line of problems) console.log(line);
  console.log(problems.length === 0 ? 'layout: every import points one way' : `layout: ${problems.length} problem(s)`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
