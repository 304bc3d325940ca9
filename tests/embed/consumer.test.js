// The package as a stranger gets it: `npm pack`, the tarball installed (offline: it has no
// dependencies) into a fresh project with no configuration, then used from Node, from a Vite app
// (production build and dev server, with the repository's Vite) and from a plain static page.
// Each browser check reads the exact seed-004 weights from inside <attn-figure>'s shadow root.
import { execFile } from 'node:child_process';
import { cp, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, createServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleGraph } from '../../tools/module-graph.mjs';
import { measure, table } from '../../tools/package-size.mjs';
import { selfAttention } from '../reference/matrices.js';
import { rendered, startPages } from '../support/pages.js';
import { shadowStageValues, worstDifference } from '../support/figures.js';
import { packAndInstall } from '../support/pack.js';
import { SEED_004 } from '../support/seed-004.js';

const run = promisify(execFile);
const FIXTURES = fileURLToPath(new URL('./consumer/', import.meta.url));
const EXACT_004 = selfAttention(SEED_004);
// float32 storage of a handful of sums and exps of numbers below 10: far below 1e-6.
const FLOAT32 = 1e-6;

let work;
let project;
let installed;

beforeAll(async () => {
  ({ work, project, installed } = await packAndInstall('attnlab-consumer-'));
  await cp(FIXTURES, project, { recursive: true });
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Opens `url` in Chromium and returns the seed-004 weights and output its <attn-figure> shows. */
async function figureNumbers(pages, name) {
  const { page, problems, requests } = await pages.open(name, { wait: false });
  await rendered(page, '#figure', 'output');
  return {
    weights: (await shadowStageValues(page, '#figure', 'weights'))[0],
    output: (await shadowStageValues(page, '#figure', 'output'))[0],
    problems,
    wasm: requests.filter((url) => new URL(url).pathname.endsWith('.wasm')),
  };
}

function expectSeed004(numbers) {
  expect(worstDifference(numbers.weights, EXACT_004.weights).diff).toBeLessThan(FLOAT32);
  expect(worstDifference(numbers.output, EXACT_004.output).diff).toBeLessThan(4 * FLOAT32);
  expect(numbers.wasm).toHaveLength(1);
  expect(numbers.problems).toEqual([]);
}

describe('the packed package in a fresh project', () => {
  it("holds every module its entries reach (relative paths only) and each entry's types", async () => {
    const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.exports)).toEqual(['.', './worker', './figures', './figures.css', './io', './train', './elements', './package.json']);
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') {
        expect(
          await stat(join(installed, target)).then(
            () => true,
            () => false,
          ),
          entry,
        ).toBe(true);
        continue;
      }
      expect(Object.keys(target)[0], `${entry}: types first`).toBe('types');
      await stat(join(installed, target.types));
      const { eager, lazy, bare } = moduleGraph(join(installed, target.default)); // reads each file: throws on a missing one
      expect([...bare], entry).toEqual([]);
      expect(eager.size + lazy.size).toBeGreaterThan(1);
    }
  });

  it('stays within the size budgets', () => {
    const { rows, problems } = measure(installed);
    console.log(`package size (installed tarball):\n${table(rows)}`);
    expect(problems).toEqual([]);
  });

  it('Node: import { loadAttention } from "attention-lab" computes seed-004 exactly; every entry imports without a DOM and exports what its .d.ts declares', async () => {
    const { stdout } = await run('node', ['seed-004.mjs'], { cwd: project });
    const result = JSON.parse(stdout);
    expect(result.backend).toMatch(/^wasm-(relaxed|simd|scalar)$/);
    expect(worstDifference(result.weights, EXACT_004.weights.flat()).diff).toBeLessThan(FLOAT32);
    expect(worstDifference(result.output, EXACT_004.output.flat()).diff).toBeLessThan(4 * FLOAT32);
    expect(result.saved).toEqual(result.weights); // through writeNpy and readTensors, bit for bit
    const pkg = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
    for (const [entry, names] of Object.entries(result.exports)) {
      // The hand-written declarations name exactly the values the module exports (types aside).
      const types = await readFile(join(installed, pkg.exports[entry].types), 'utf8');
      const declared = [...types.matchAll(/^export (?:declare )?(?:function|class|const) (\w+)/gm)].map((m) => m[1]);
      expect([...new Set(declared)].sort(), entry).toEqual(names);
    }
  });

  describe('in Chromium', () => {
    let pages;
    beforeAll(async () => {
      pages = await startPages({ folder: project });
    });
    afterAll(async () => {
      await pages?.close();
    });

    it('a plain static page (<script type="module"> from node_modules, no bundler) shows the exact weights', async () => {
      expectSeed004(await figureNumbers(pages, 'plain.html'));
    });

    it('a Vite app, production build, shows the exact weights', async () => {
      const result = await build({ root: project, configFile: false, logLevel: 'silent' });
      const assets = result.output.filter((o) => o.fileName.endsWith('.js') || o.fileName.endsWith('.wasm') || o.fileName.endsWith('.css'));
      const gzKiB = (a) => (gzipSync(a.code ?? a.source, { level: 9 }).length / 1024).toFixed(1);
      console.log(`vite build of the app (gzip -9 KiB): ${assets.map((a) => `${a.fileName.replace(/^assets\//, '')} ${gzKiB(a)}`).join(', ')}`);
      expect(assets.some((a) => a.fileName.endsWith('.wasm'))).toBe(true);
      const dist = await startPages({ folder: join(project, 'dist') });
      try {
        expectSeed004(await figureNumbers(dist, 'index.html'));
      } finally {
        await dist.close();
      }
    });

    it('a Vite app on the dev server (dependency pre-bundling) shows the exact weights', async () => {
      const server = await createServer({ root: project, configFile: false, logLevel: 'silent', server: { host: '127.0.0.1', port: 0 } });
      await server.listen();
      try {
        const numbers = await figureNumbers(pages, new URL('index.html', server.resolvedUrls.local[0]).href);
        expectSeed004(numbers);
      } finally {
        await server.close();
      }
    });
  });
});
