// What an ES module's text says about the files it loads, read with three patterns (no parser: our
// sources are written so these find every load, and tools/check-layout.mjs holds them to it):
//   static   import ... from './x.js', export ... from './x.js', import './x.js'
//   dynamic  import('./x.js') of a literal
//   asset    new URL('./x.wasm', import.meta.url)
// Shared by tools/module-graph.mjs (sizes, layers) and standalone-html.js (which inlines a graph).

const STATIC = /(?:^|[;\s])(?:import|export)\s+(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const ASSET = /new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g;
const PATTERNS = [
  [STATIC, 'static'],
  [DYNAMIC, 'dynamic'],
  [ASSET, 'asset'],
];

/** The text without its comments, which may quote imports (examples in headers): for reading only. */
export const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The specifiers of a module's text: [{ spec, kind: 'static' | 'dynamic' | 'asset' }]. */
export function specifiersIn(text) {
  const code = withoutComments(text);
  const found = [];
  for (const [pattern, kind] of PATTERNS) {
    for (const match of code.matchAll(pattern)) found.push({ spec: match[1], kind });
  }
  return found;
}

/** The text with the specifier of every static and dynamic load replaced by to(spec). */
export function replaceSpecifiers(text, to) {
  let out = text;
  for (const [pattern] of PATTERNS.slice(0, 2)) {
    out = out.replace(pattern, (match, spec) => {
      const at = match.lastIndexOf(spec);
      return match.slice(0, at) + to(spec) + match.slice(at + spec.length);
    });
  }
  return out;
}

/**
 * The text without whole-line comments (// lines, and block comments that fill their lines): the
 * shipped form of a module inside a standalone file. Safe where withoutComments() is not (a '//'
 * inside a string or a regular expression is never at the start of a line in our sources).
 */
export const withoutCommentLines = (text) => text.replace(/^[ \t]*\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/[ \t]*\n/gm, '').replace(/^[ \t]*\/\/.*\n/gm, '');
