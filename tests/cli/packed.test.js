// The command as a stranger gets it: `npm pack`, the tarball installed (offline: no dependencies)
// into a fresh project, then run through the bin link npm made (node_modules/.bin/attention-lab).
import { execFile } from 'node:child_process';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSafetensors } from '../../web/io/index.js';
import { packAndInstall } from '../support/pack.js';
import { INDUCTION, induction } from './expected.js';
import { REPO } from './run.js';

let work;
let project;

/** -> { code, stdout, stderr } of the installed bin, run in the fresh project. */
function installed(args) {
  return new Promise((resolve) => {
    execFile(join(project, 'node_modules', '.bin', 'attention-lab'), args, { cwd: project }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr });
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
  it("info lists the example's tensor", async () => {
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

  it('every view in every format it has: heatmap and heads as SVG and HTML, the pipeline as a computing HTML file', async () => {
    for (const [view, format] of [
      ['heatmap', 'html'],
      ['heads', 'svg'],
    ]) {
      const run = await installed(['figure', 'attention.safetensors', '--view', view, ...(view === 'heatmap' ? ['--index', '0,0'] : []), '-o', `v.${format}`]);
      expect(run.code, `${view} ${format}: ${run.stderr}`).toBe(0);
      const text = await readFile(join(project, `v.${format}`), 'utf8');
      expect(text).toMatch(format === 'svg' ? /^<svg[\s\S]*data-value="/ : /^<!doctype html>[\s\S]*data-value="/);
    }
    // Q, K, V of seed 004's shapes as a file; the pipeline file packs the installed package's modules.
    const q = { data: Float32Array.from([1, 0, 0, 1, 1, 1]), shape: [1, 3, 2], dtype: 'float32' };
    await writeFile(join(project, 'qkv.safetensors'), writeSafetensors({ q, k: q, v: q }));
    const run = await installed(['figure', 'qkv.safetensors', '--view', 'pipeline', '-o', 'p.html']);
    expect(run.code, run.stderr).toBe(0);
    const html = await readFile(join(project, 'p.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<attn-figure');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/); // nothing outside the file
  });

  it('PNG and PDF without playwright-core installed say to write SVG instead and exit 1', async () => {
    for (const format of ['png', 'pdf']) {
      const { code, stderr } = await installed(['figure', 'attention.safetensors', '--index', '0,0', '-o', `a.${format}`]);
      expect(code).toBe(1);
      expect(stderr).toBe(`attention-lab: ${format.toUpperCase()} needs Chromium; write SVG instead (--format svg) (playwright-core is not installed)\n`);
    }
  });
});
