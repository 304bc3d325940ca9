// Vitest: the same test files (tests/js, tests/io, and the fuzz suite tests/fuzz) run in two projects (the command line's tests/cli in node only), the explorer's end-to-end tests in a third, the embedding tests in a fourth,
// the type checks in a fifth.
//   node     environment node: web/src/index.js reads the .wasm bytes itself (Node 20: with
//            --experimental-wasm-relaxed-simd, so the relaxed build runs too).
//   browser  real Chromium (Debian's /usr/bin/chromium, driven by playwright-core; never downloaded),
//            the .wasm fetched over Vite's dev server from web/wasm/ (inside the project root).
//            Its files share one iframe; browser-fresh runs the few that need a new one each.
//   e2e      environment node: tests/e2e drive Chromium with playwright-core against the built
//            explorer (dist/site, `npm run build:site`) served on a free loopback port, two files
//            at a time (each runs its own browser).
//   embed    environment node: tests/embed drive Chromium the same way against the custom elements
//            and figure functions (raw sources, no bundler), dist/site's embed.html, guide and Embed
//            dialog, and the packed package installed into a fresh project (Node, Vite, plain page).
//   types    environment node: tsc --strict over tests/types (a consumer per package entry) and
//            the declarations against the JS modules' exports and accepted options.
// Data files (golden.json, the ONNX conformance vectors) are imported through Vite (JSON imports,
// import.meta.glob), never read with fs, so one file works in both environments; all of them are
// inside the repository (tests/golden, tests/conformance).
import { configDefaults, defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tools/chromium.mjs';
import { startingWith } from './tools/vitest-sequencer.mjs';

// Relaxed SIMD is on by default from Node 22; Node 20 has it behind a flag, which the node project's
// workers get so that the suites also run on the relaxed build (tests/js/support/backends.js).
const RELAXED_SIMD_ARGS = Number(process.versions.node.split('.')[0]) < 22 ? ['--experimental-wasm-relaxed-simd'] : [];

// The fuzz suite's size and seed (tests/fuzz/settings.js): `npm run fuzz -- --runs N --seed S`.
const fuzz = {
  ...(process.env.FUZZ_RUNS ? { runs: Number(process.env.FUZZ_RUNS) } : {}),
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};

// The files that time a page (the explorer's first render, its frames while the speed panel runs and while the lab trains,
// the figures' render times): the project timed runs them one at a time with nothing else running,
// after e2e and embed (tools/test.sh), which run two files at a time.
const TIMED = ['tests/e2e/first-render.test.js', 'tests/e2e/speed.test.js', 'tests/e2e/lab-frames.test.js', 'tests/embed/render-times.test.js'];

// The longest files of the projects that run two files at a time (the e2e files that take 19 s and
// more, longest first), started before the others so that the two workers end together: on a fresh
// clone Vitest starts the largest files first, and short files that drive many pages (screens,
// accessibility, presets) started late and ran alone at the end.
const LONGEST = [
  'tests/e2e/accessibility.test.js',
  'tests/e2e/screens.test.js',
  'tests/e2e/import.test.js',
  'tests/e2e/i18n.test.js',
  'tests/e2e/generate.test.js',
  'tests/e2e/lab.test.js',
  'tests/e2e/positions.test.js',
  'tests/e2e/presets.test.js',
  'tests/embed/site.test.js',
  'tests/embed/elements.test.js',
];

// The files whose subject is what a fresh page has loaded (which modules a figure imports, the
// words of a language not loaded yet, a stylesheet fetch that failed once, mocked modules): the
// *-fresh projects run them, each in a new iframe or module graph. Every other file shares its
// worker's loaded modules (isolate: false): a new iframe per browser file re-fetched and
// re-evaluated the package's modules through Vite's dev server 73 times, about a third of the
// browser project's time (docs/performance.md).
// The test files that run in both Node and Chromium (tests/cli runs in Node only).
const RUNTIME_TESTS = ['tests/js/**/*.test.js', 'tests/io/**/*.test.js', 'tests/fuzz/**/*.test.js'];

const FRESH_MODULES = [
  'tests/js/figures/figure-loading.test.js',
  'tests/js/figures/figure-lang.test.js', // zh-CN's words before and after loadLanguage()
  'tests/js/model/i18n.test.js',
  'tests/js/api/host-hardening.test.js',
  'tests/js/model/model-layer.test.js',
];

/** A project in Node over the files of tests/js, tests/io, tests/fuzz and tests/cli (or `include`), but `exclude`. */
function nodeProject(name, { include = [...RUNTIME_TESTS, 'tests/cli/**/*.test.js'], exclude = [], isolate }) {
  return {
    test: {
      name,
      // isolate false: each worker keeps its loaded modules and compiled wasm from file to file.
      isolate,
      environment: 'node',
      execArgv: RELAXED_SIMD_ARGS,
      include,
      exclude: [...configDefaults.exclude, ...exclude],
      // Two files at a time: one left a core idle while a file loaded its modules and wasm.
      fileParallelism: true,
      maxWorkers: 2,
      provide: { fuzz },
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

/** A project in real Chromium over the files of tests/js, tests/io and tests/fuzz (or `include`), but `exclude`. */
function browserProject(name, { include = RUNTIME_TESTS, exclude = [], isolate }) {
  return {
    test: {
      name,
      isolate,
      include,
      // The import-layout and catalog checks read the sources with node:fs: properties of the
      // repository, not of a runtime.
      exclude: [...configDefaults.exclude, 'tests/js/tools/layout.test.js', 'tests/js/model/i18n.test.js', ...exclude],
      provide: { fuzz },
      testTimeout: 30_000,
      hookTimeout: 60_000,
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        provider: playwright({
          launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
        }),
        instances: [{ browser: 'chromium' }],
      },
    },
  };
}

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js'],
    // Data-heavy suites (76 ONNX cases x 2 backends) are quick per case; wasm instantiation is the slow part.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { sequencer: startingWith(LONGEST) },
    projects: [
      nodeProject('node', { exclude: FRESH_MODULES, isolate: false }),
      nodeProject('node-fresh', { include: FRESH_MODULES, isolate: true }),
      {
        test: {
          name: 'types',
          environment: 'node',
          include: ['tests/types/**/*.test.js', 'tests/lint/**/*.test.js'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          // A worker's files share its process and so one Chromium (tests/support/browser.js).
          isolate: false,
          environment: 'node',
          include: ['tests/e2e/**/*.test.js'],
          exclude: [...configDefaults.exclude, ...TIMED],
          // Two files at a time: two took the project from 239 to 183 s on 2 cores (Zen 4); on the
          // Xeon both cores are then busy (vmstat: 2% idle). None of them times anything.
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'timed',
          environment: 'node',
          include: TIMED,
          fileParallelism: false, // they time the page: one file, and nothing else, at a time
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'embed',
          // A worker's files share its process and so one Chromium (tests/support/browser.js).
          isolate: false,
          environment: 'node',
          include: ['tests/embed/**/*.test.js'],
          exclude: [...configDefaults.exclude, ...TIMED],
          // Two files at a time, like e2e: one at a time left a core 30% idle (vmstat).
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000, // the consumer test packs and installs the package first
        },
      },
      browserProject('browser', { exclude: FRESH_MODULES, isolate: false }),
      browserProject('browser-fresh', { include: FRESH_MODULES, isolate: true }),
    ],
  },
});
