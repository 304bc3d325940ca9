// The command as a stranger gets it: `npm pack`, the tarball installed (offline: no dependencies)
// into a fresh project, then run through the bin link npm made (node_modules/.bin/attention-lab).
import { execFile } from 'node:child_process';
import { copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAndInstall } from '../support/pack.js';
import { INDUCTION, induction } from './expected.js';
import { REPO } from './run.js';

let work;
let project;

/** -> { code, stdout, stderr } of the installed bin, run in the fresh project. */
function installed(args) {
  return new Promise((resolve) => {
    execFile(join(project, 'node_modules', '.bin', 'attention-lab'), args, { cwd: project }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code ?? 1 : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  ({ work, project } = await packAndInstall('attnlab-cli-packed-'));
  await copyFile(join(REPO, INDUCTION), join(project, 'attention.safetensors'));
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the attention-lab command from the packed package in a fresh project', () => {
  it('info lists the example\'s tensor', async () => {
    const { code, stdout } = await installed(['info', 'attention.safetensors']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}attention +float32 +\[2, 4, 24, 24\]$/m);
  });

  it('figure writes an SVG heatmap with the exact values and an HTML page', async () => {
    const { data } = induction();
    const svg = await installed(['figure', 'attention.safetensors', '--index', '0,0', '-o', 'a.svg']);
    expect(svg.code).toBe(0);
    const values = [...(await readFile(join(project, 'a.svg'), 'utf8')).matchAll(/data-value="([^"]*)"/g)].map((m) => m[1]);
    expect(values).toEqual(Array.from(data.subarray(0, 24 * 24), String));
    const html = await installed(['figure', 'attention.safetensors', '--view', 'heads', '-o', 'a.html']);
    expect(html.code).toBe(0);
    expect((await readFile(join(project, 'a.html'), 'utf8')).startsWith('<!doctype html>')).toBe(true);
  });

  it('PNG without playwright-core installed says to write SVG instead and exits 1', async () => {
    const { code, stderr } = await installed(['figure', 'attention.safetensors', '--index', '0,0', '-o', 'a.png']);
    expect(code).toBe(1);
    expect(stderr).toContain('PNG needs Chromium; write SVG instead');
  });
});
