// Lint and format, enforced by `npm test` (Vitest project "types", which holds the static checks):
//   ESLint     eslint.config.js: @eslint/js's recommended rules over every JS file
//   Prettier   .prettierrc.json: the layout of the JS files and the .d.ts
//   clang-format  .clang-format: the layout of every C++ file (Debian's clang-format 14)
// Each test lists what is wrong and the command that fixes it (`npm run format` rewrites the
// layout; ESLint's findings are fixed by hand).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The files git knows (tracked, plus new ones not ignored) matching the pathspecs. */
function repositoryFiles(...pathspecs) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...pathspecs], {
    cwd: root,
    encoding: 'utf8',
  });
  return [...new Set(out.split('\n').filter(Boolean))].filter((file) => fs.existsSync(path.join(root, file)));
}

describe('lint and format', () => {
  it('ESLint finds no problem in the JS files', { timeout: 120_000 }, async () => {
    const eslint = new ESLint({ cwd: root });
    const results = await eslint.lintFiles(['.']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line}:${m.column} ${m.message} (${m.ruleId})`));
    expect(problems, 'npx eslint . lists them').toEqual([]);
  });

  it('every JS file and .d.ts is laid out as Prettier writes it', { timeout: 120_000 }, async () => {
    const unformatted = [];
    for (const file of repositoryFiles('*.js', '*.mjs', '*.ts')) {
      const full = path.join(root, file);
      const info = await prettier.getFileInfo(full, { ignorePath: path.join(root, '.prettierignore') });
      if (info.ignored) continue;
      const options = { ...(await prettier.resolveConfig(full)), filepath: full };
      if (!(await prettier.check(fs.readFileSync(full, 'utf8'), options))) unformatted.push(file);
    }
    expect(unformatted, '`npm run format` rewrites them').toEqual([]);
  });

  it('every C++ file is laid out as clang-format writes it', { timeout: 120_000 }, () => {
    const files = repositoryFiles('*.cpp', '*.hpp');
    expect(files.length).toBeGreaterThan(10);
    const run = spawnSync('clang-format', ['--dry-run', '--Werror', ...files], { cwd: root, encoding: 'utf8' });
    expect(run.error, 'clang-format is installed by tools/setup.sh').toBeUndefined();
    const unformatted = [...new Set([...run.stderr.matchAll(/^([^\s:]+):\d+:\d+: error/gm)].map((m) => m[1]))];
    expect(unformatted, '`npm run format` rewrites them').toEqual([]);
    expect(run.status).toBe(0);
  });
});
