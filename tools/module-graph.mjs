// The files an ES module reaches by relative paths, as a browser with no bundler (or a bundler)
// follows them: static imports and re-exports (eager), dynamic import() of a literal (on demand),
// and new URL('<literal>', import.meta.url) assets: .wasm, .css, worker scripts (on demand, since
// they are fetched when used). Bare specifiers ('katex') are listed apart: a package entry must
// have none, or a plain page could not load it.
//   moduleGraph(entry) -> { eager: Set<path>, lazy: Set<path>, bare: Set<'spec (from file)'>,
//                           edges: Map<'from\0spec', { from, spec, to }> (the relative ones) }
//   specifiers(file)   -> [{ spec, kind }] of one file, codeOf(file) its source without comments
//                         (tools/check-layout.mjs checks each file against the layers)
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { specifiersIn, withoutComments } from '../web/figures/export/module-text.js';

/** The source of one file without its comments, which may quote imports (examples in headers). */
export const codeOf = (file) => withoutComments(readFileSync(file, 'utf8'));

/** The specifiers of one file: [{ spec, kind: 'static' | 'dynamic' | 'asset' }]. */
export const specifiers = (file) => specifiersIn(readFileSync(file, 'utf8'));

export function moduleGraph(entry) {
  const eager = new Set();
  const lazy = new Set();
  const bare = new Set();
  const edges = new Map();
  const visit = (file, onDemand) => {
    if (eager.has(file) || (onDemand && lazy.has(file))) return;
    if (onDemand) lazy.add(file);
    else {
      lazy.delete(file);
      eager.add(file);
    }
    if (!/\.m?js$/.test(file)) return;
    for (const { spec, kind } of specifiers(file)) {
      if (spec.startsWith('node:') || /^[a-z]+:/.test(spec)) continue; // built-ins and data:/http: URLs
      // new URL('x.wasm', import.meta.url) is relative even without './' (Emscripten's glue writes it so).
      if (!spec.startsWith('.') && kind !== 'asset') {
        bare.add(`${spec} (from ${file})`);
        continue;
      }
      const to = resolve(dirname(file), spec);
      edges.set(`${file}\0${spec}`, { from: file, spec, to });
      visit(to, onDemand || kind !== 'static');
    }
  };
  visit(resolve(entry), false);
  return { eager, lazy, bare, edges };
}
