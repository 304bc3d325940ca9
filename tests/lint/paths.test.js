// Docs that stay true: every repository path cited in a doc (*.md), a guide page, or a comment of a
// source file (JS, .d.ts, C++, shell, CMake) names a file or folder that exists. Paths under the
// folders the build and the tests write (web/wasm/, dist/, build*/, test-results/, tests/artifacts/)
// are not in a clone and are let through; so are patterns (`*`, `{a,b}`, `<name>`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOP = ['web', 'tools', 'cpp', 'tests', 'bench', 'docs', 'cli', 'examples', 'bin', '.ci'];
const GENERATED = ['web/wasm/', 'tests/artifacts/', 'dist/', 'build', 'test-results/'];
// A path: one of the top folders, then path characters; not preceded by a path character (so
// /usr/bin/chromium and node_modules/x/web/y are not read as ours).
const CITED = new RegExp(`(?<![\\w./@-])(?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\\w./*{}<>,-]*`, 'g');

function files(...pathspecs) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...pathspecs], {
    cwd: root,
    encoding: 'utf8',
  });
  return out.split('\n').filter((f) => f && fs.existsSync(path.join(root, f)));
}

/** The comment text of a source file: `//` and `/* *\/` in JS and C++, `#` in shell and CMake. */
function commentText(file, text) {
  if (/\.(sh|cmake)$|CMakeLists\.txt$|^\.ci\//.test(file)) {
    return text
      .split('\n')
      .map((line) => line.match(/(?:^|\s)#(.*)$/)?.[1] ?? '')
      .join('\n');
  }
  const parts = [];
  if (/\.(js|mjs|ts)$/.test(file)) {
    // TypeScript's scanner tells comments from strings (a glob such as '**/*.js' is not a comment).
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
      if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
        parts.push(scanner.getTokenText());
      }
    }
    return parts.join('\n');
  }
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/.*$/gm)) parts.push(m[0]);
  return parts.join('\n');
}

// A relative file path (a folder, a name and a source extension), found beside the citing file, in
// a parent folder, or under a source root; package specifiers (attention-lab/...) and placeholders
// (path/to/...) aside.
const RELATIVE = /(?<![\w./@:-])(?:[\w-]+\/)+[\w.-]+\.(?:js|mjs|ts|cpp|hpp|md|css|html|py|sh|json)\b/g;

/** Whether a relative path exists beside the citing file, in one of its parent folders, or a source root. */
function resolvesNear(file, cite) {
  const bases = [];
  for (let dir = path.dirname(file); dir !== '.' && dir !== '/'; dir = path.dirname(dir)) bases.push(dir);
  bases.push('.', 'web', 'web/src', 'web/model', 'web/figures', 'web/site', 'web/i18n', 'cpp/include', 'tools/bench');
  return bases.some((base) => fs.existsSync(path.join(root, base, cite)));
}

/** Every cited path in a file, with its line number, that is not in the repository. */
function missingPaths(file) {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const cited = /\.(md|html)$/.test(file) ? text : commentText(file, text);
  const missing = [];
  for (const m of cited.matchAll(CITED)) {
    const cite = m[0].replace(/[.,:]+$/, '');
    if (/[*{}<>]/.test(cite) || GENERATED.some((g) => cite.startsWith(g))) continue;
    if (!fs.existsSync(path.join(root, cite))) missing.push(cite);
  }
  for (const m of cited.matchAll(RELATIVE)) {
    const cite = m[0];
    if (TOP.some((t) => cite.startsWith(`${t}/`)) || /^(node_modules|attention-lab|path\/to)\//.test(cite)) continue;
    if (!resolvesNear(file, cite)) missing.push(cite);
  }
  return [...new Set(missing)].map((cite) => `${file}: ${cite}`);
}

describe('cited paths', () => {
  it('every repository path a doc, a guide page or a comment cites exists', () => {
    const sources = files('*.md', '*.html', '*.js', '*.mjs', '*.ts', '*.cpp', '*.hpp', '*.sh', '*.cmake', 'CMakeLists.txt', '.ci/*');
    expect(sources.length).toBeGreaterThan(100);
    const missing = sources.filter((f) => !f.startsWith('tests/golden/')).flatMap(missingPaths);
    expect(missing, 'paths cited that do not exist').toEqual([]);
  });
});
