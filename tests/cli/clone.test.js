// The command as the README gives it while the package is not on the registry: a clone of the
// repository, with no npm install and no build (web/wasm/ is built, not committed), run as
// `node <clone>/bin/attention-lab.mjs`. Heatmaps and heads need nothing more; PNG and PDF say
// they need playwright-core, and the computing pipeline says the wasm core is to be built.
import { cp, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSafetensors } from '../../web/io/index.js';
import { INDUCTION } from './expected.js';
import { REPO, runCli } from './run.js';

let work;
let clone;
let bin;

beforeAll(async () => {
  // The real path: Node names a module by its resolved path, so a symlinked temp folder would differ.
  work = await realpath(await mkdtemp(join(tmpdir(), 'attnlab-cli-clone-')));
  clone = join(work, 'attention-lab');
  // What the command reaches of a clone; the temp folder has no node_modules above it.
  for (const part of ['bin', 'cli', 'package.json']) await cp(join(REPO, part), join(clone, part), { recursive: true });
  await cp(join(REPO, 'web'), join(clone, 'web'), { recursive: true, filter: (from) => !/[\\/]web[\\/](wasm|site)$/.test(from) });
  bin = join(clone, 'bin', 'attention-lab.mjs');
  await cp(join(REPO, INDUCTION), join(work, 'attention.safetensors'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const inWork = (args) => runCli(args, { bin, cwd: work });

describe('node <clone>/bin/attention-lab.mjs, with no npm install and no build', () => {
  it('info, an SVG heatmap and an HTML heads page work', async () => {
    const info = await inWork(['info', 'attention.safetensors']);
    expect(info.stdout).toContain('tokens (24, positions 0 to 23)');
    for (const [args, out, start] of [
      [['--index', '1,2'], 'head.svg', '<svg'],
      [['--view', 'heads'], 'heads.html', '<!doctype html>'],
    ]) {
      const run = await inWork(['figure', 'attention.safetensors', ...args, '-o', out]);
      expect(run.code, run.stderr).toBe(0);
      expect((await readFile(join(work, out), 'utf8')).startsWith(start)).toBe(true);
    }
  });

  it('PNG and PDF exit 1 saying playwright-core is not installed', async () => {
    for (const out of ['a.png', 'a.pdf']) {
      const { code, stderr } = await inWork(['figure', 'attention.safetensors', '-o', out]);
      expect(stderr).toContain('needs Chromium; write SVG instead (--format svg) (playwright-core is not installed)');
      expect(code).toBe(1);
    }
  });

  it('--view pipeline exits 1 saying which wasm file to build and how, not a bare ENOENT', async () => {
    const q = { data: Float32Array.from([1, 0, 0, 1, 1, 1]), shape: [3, 2] };
    await writeFile(join(work, 'qkv.safetensors'), writeSafetensors({ q, k: q, v: q }));
    const { code, stderr } = await inWork(['figure', 'qkv.safetensors', '--view', 'pipeline', '-o', 'p.html']);
    expect(stderr).toBe(
      `attention-lab: --view pipeline packs the wasm core into the page, and ${clone}/web/wasm/attention-simd.js and .wasm are not built: run npm run build:wasm in ${clone}/, or use the package from npm pack\n`,
    );
    expect(code).toBe(1);
  });
});
