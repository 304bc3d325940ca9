// The layers' arrows point one way (tools/check-layout.mjs): the package never imports the app or
// tools/, the web/src sub-folders and the shipped folders import only downward, and the package
// ships no web/site file. Run on the repository, and on a small tree with one breach of each rule
// so that the check is seen to fail.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLayout } from '../../../tools/check-layout.mjs';
import { moduleGraph } from '../../../tools/module-graph.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('the import layout', () => {
  it('has every import of the repository pointing one way (each offender printed as file -> spec)', () => {
    expect(checkLayout(ROOT)).toEqual([]);
  });
});

describe('the figures entry', () => {
  it('imports none of the model (state, presets, compute, stages) nor the pipeline code eagerly: pipeline() loads them when called', () => {
    const { eager, lazy } = moduleGraph(join(ROOT, 'web/figures/index.js'));
    const paths = (files) => [...files].map((f) => relative(ROOT, f));
    // web/model/attentions.js is heads()'s input layout, a drawing function's own code: eager.
    expect(paths(eager).filter((f) => /^web\/model\/(state|presets|compute|stages)\/|^web\/figures\/pipeline\//.test(f))).toEqual([]);
    expect(paths(lazy)).toEqual(expect.arrayContaining(['web/figures/pipeline/pipeline.js', 'web/model/presets/d2l.js', 'web/model/compute/backward.js']));
  });

  it("has pipeline()'s code import no preset, backward module or gallery statically (load.js imports each when a spec shows it)", () => {
    const { eager } = moduleGraph(join(ROOT, 'web/figures/pipeline/pipeline.js'));
    const paths = [...eager].map((f) => relative(ROOT, f));
    expect(paths).toContain('web/figures/pipeline/load.js');
    const onDemand = ['web/model/compute/backward.js', 'web/model/stages/backward.js', 'web/figures/pipeline/gallery.js'];
    expect(paths.filter((f) => /^web\/model\/presets\/(?!catalog\.js)/.test(f) || onDemand.includes(f))).toEqual([]);
  });
});

describe('the layout check', () => {
  const root = mkdtempSync(join(tmpdir(), 'attnlab-layout-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const pkg = (files) =>
    write('package.json', JSON.stringify({ exports: { '.': './web/src/index.js', './figures': { default: './web/figures/index.js' } }, files }));
  const SHIPPED = ['web/src', 'web/wasm/*.wasm', 'web/model', 'web/figures', 'web/elements'];
  // The check's problems with package.json files set to `files`, then the tree's own files again.
  const withFiles = (files, expectations) => {
    pkg(files);
    try {
      expectations(checkLayout(root));
    } finally {
      pkg(SHIPPED);
    }
  };
  // A tree that obeys every rule: each test adds one breach and looks for its line.
  write('web/src/index.js', "export { run } from './api.js';\nexport { pool } from './threads/pool.js';\n");
  write('web/src/api.js', "import { op } from './ops/op.js';\nexport const run = op;\n");
  write('web/src/ops/op.js', "import { check } from '../boundary/check.js';\nexport const op = check;\n");
  write('web/src/boundary/check.js', "const wasm = new URL('../../wasm/core.wasm', import.meta.url);\nexport const check = () => wasm;\n");
  write('web/src/threads/pool.js', "import { run } from '../api.js';\nexport const pool = run;\n");
  write('web/wasm/core.wasm', '');
  write('web/model/state.js', "import { run } from '../src/api.js';\nexport const window = run; // a name, not the DOM's\n");
  write('web/figures/index.js', "import { window } from '../model/state.js';\nexport const draw = () => document.createElement('svg') && window;\n");
  write('web/elements/index.js', "import { draw } from '../figures/index.js';\nexport { draw };\n");
  write('web/site/app.js', "import { draw } from '../elements/index.js';\nimport '../../examples/data.bin?url';\ndraw();\n");
  write('tools/bench.mjs', "import { run } from '../web/src/api.js';\nimport { median } from '../web/measure/timing.js';\nrun(median);\n");
  write('web/measure/timing.js', 'export const median = (xs) => xs[xs.length >> 1];\n');
  // The command line, as a user of the package: the entries, its own folder, packages, an asset URL.
  write(
    'cli/main.js',
    "import { draw } from '../web/figures/index.js';\nimport { say } from './say.js';\nexport const run = async () => (await import('playwright-core')) && draw(say, new URL('..', import.meta.url));\n",
  );
  write('cli/say.js', "export const say = () => import('../web/src/index.js');\n");
  write('bin/cli.mjs', "import { run } from '../cli/main.js';\nrun();\n");
  pkg(SHIPPED);

  const breach = (path, text, expected) => {
    write(path, text);
    try {
      const problems = checkLayout(root);
      expect(
        problems.some((line) => line.startsWith(expected)),
        problems.join('\n'),
      ).toBe(true);
    } finally {
      rmSync(join(root, path));
    }
  };

  it('passes the tree that obeys every rule', () => {
    expect(checkLayout(root)).toEqual([]);
  });

  it('names a figures file that imports the app', () => {
    breach('web/figures/menu.js', "import { app } from '../site/app.js';\n", 'web/figures/menu.js -> ../site/app.js');
  });

  it('names an element that imports tools/ on demand or as an asset', () => {
    breach('web/elements/lazy.js', "export const load = () => import('../../tools/bench.mjs');\n", 'web/elements/lazy.js -> ../../tools/bench.mjs');
    breach(
      'web/elements/worker.js',
      "export const url = new URL('../../tools/bench.mjs', import.meta.url);\n",
      'web/elements/worker.js -> ../../tools/bench.mjs',
    );
  });

  it('names the app importing tools/', () => {
    breach('web/site/speed.js', "import { run } from '../../tools/bench.mjs';\n", 'web/site/speed.js -> ../../tools/bench.mjs');
  });

  it('names a tool that imports the app, statically, on demand or as a page path', () => {
    breach('tools/speed.mjs', "import { median } from '../web/site/features/speed/timing.js';\n", 'tools/speed.mjs -> ../web/site/features/speed/timing.js');
    breach('tools/bench/page.mjs', "export const load = () => import('/web/site/app.js');\n", 'tools/bench/page.mjs -> /web/site/app.js');
  });

  it('names the measuring code (web/measure) importing the app or the API, or touching the DOM', () => {
    breach('web/measure/panel.js', "import { app } from '../site/app.js';\n", 'web/measure/panel.js -> ../site/app.js');
    breach('web/measure/api.js', "import { run } from '../src/api.js';\n", 'web/measure/api.js -> ../src/api.js');
    breach('web/measure/screen.js', 'export const width = () => window.innerWidth;\n', 'web/measure/screen.js -> window');
  });

  it('names layers that point upward', () => {
    breach('web/src/ops/figure.js', "import { draw } from '../../figures/index.js';\n", 'web/src/ops/figure.js -> ../../figures/index.js');
    breach('web/src/ops/model.js', "import { window } from '../../model/state.js';\n", 'web/src/ops/model.js -> ../../model/state.js');
    breach('web/model/draw.js', "import { draw } from '../figures/index.js';\n", 'web/model/draw.js -> ../figures/index.js');
    breach('web/figures/element.js', "import { draw } from '../elements/index.js';\n", 'web/figures/element.js -> ../elements/index.js');
  });

  it('names a model module that touches the DOM or imports KaTeX', () => {
    breach('web/model/dom.js', 'export const width = () => document.body.clientWidth;\n', 'web/model/dom.js -> document');
    breach('web/model/tex.js', "import katex from 'katex';\nexport const tex = katex;\n", 'web/model/tex.js -> katex');
  });

  it('names a catalog module (web/i18n) that imports another layer, a package or touches the DOM', () => {
    breach('web/i18n/state.js', "import { window } from '../model/state.js';\n", 'web/i18n/state.js -> ../model/state.js');
    breach('web/i18n/lang.js', 'export const lang = () => navigator.language;\n', 'web/i18n/lang.js -> navigator');
    breach('web/i18n/icu.js', "import icu from 'intl-messageformat';\nexport default icu;\n", 'web/i18n/icu.js -> intl-messageformat');
  });

  it('names a boundary module that imports an op, and an op that imports the threads', () => {
    breach('web/src/boundary/slopes.js', "import { op } from '../ops/op.js';\n", 'web/src/boundary/slopes.js -> ../ops/op.js');
    breach('web/src/ops/parallel.js', "export const p = () => import('../threads/pool.js');\n", 'web/src/ops/parallel.js -> ../threads/pool.js');
  });

  it('names the command line (cli/, bin/) importing a module behind an entry, statically or on demand, or the app', () => {
    breach('cli/colors.js', "import { PALETTE } from '../web/figures/palette.js';\n", 'cli/colors.js -> ../web/figures/palette.js');
    breach('cli/state.js', "export const load = () => import('../web/figures/pipeline/state.js');\n", 'cli/state.js -> ../web/figures/pipeline/state.js');
    breach('cli/app.js', "import { app } from '../web/site/app.js';\n", 'cli/app.js -> ../web/site/app.js');
    breach('bin/model.mjs', "import { window } from '../web/model/state.js';\n", 'bin/model.mjs -> ../web/model/state.js');
    breach('cli/bin.js', "import '../bin/cli.mjs';\n", 'cli/bin.js -> ../bin/cli.mjs');
  });

  it('names a package entry that reaches a file the package does not ship', () => {
    withFiles(['web/src', 'web/wasm/*.wasm', 'web/model', 'web/elements'], (problems) => {
      expect(problems).toContain('package.json exports -> ./figures (web/figures/index.js: package.json files does not ship it)');
    });
    withFiles(['web/src', 'web/model', 'web/figures', 'web/elements'], (problems) => {
      // Both entries reach the loader (figures through the model and the API).
      expect(problems).toContain(
        'web/src/boundary/check.js -> ../../wasm/core.wasm (package entry ., ./figures reaches a file package.json files does not ship)',
      );
    });
  });

  it('names files entries that ship web/site', () => {
    for (const files of [['web/site'], ['web'], ['web/site/app.js'], ['web/**/*.js']]) {
      withFiles([...SHIPPED, ...files], (problems) => {
        expect(
          problems.some((line) => line.startsWith('package.json files -> ')),
          JSON.stringify(files),
        ).toBe(true);
      });
    }
  });
});
