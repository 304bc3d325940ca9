// The download size of each package entry, gzipped, as the package ships (unminified sources; a
// plain page fetches them file by file, so each file is gzipped on its own, as a server does):
//   eager      the JS an import of the entry loads at once (static imports)
//   on demand  the JS and CSS it may load later (dynamic imports, workers, stylesheets fetched by
//              URL): an upper bound, since it counts paths a given use never takes (the worker pool)
//   wasm       the .wasm it may fetch (the SIMD build; the scalar one only without SIMD)
// and two scenarios, what a page downloads for its first <attn-figure> and for an <attn-heatmap>,
// It fails when an entry is over its budget (below, each with its reason) or reaches a bare
// specifier (which a page without a bundler cannot resolve).
//   node tools/package-size.mjs [--root DIR]   (default: this repository; the consumer test passes
//                                                the installed package)
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { moduleGraph } from './module-graph.mjs';

const KB = 1024;

// Budgets in gzipped KiB, and why.
const BUDGETS = {
  // A page that imports the API pays for its JS glue before any call: keep it under a small image.
  // It holds the checks at the boundary (option copies, typed arrays measured through the engine's
  // getters, overflow scans), every op's options, the KV caches and attn.transformer (web/src/train:
  // the synchronous API returns a model at once, so its code loads with the API).
  // Each budget's history (what raised it, by how much) is in git log -p tools/package-size.mjs.
  '.': { eager: 55.5, reason: 'the API wrapper (no wasm yet) should cost less than a small image' },
  // The API above plus the pool: dead-worker replacement, layer handles pinned to their worker's
  // generation, the remote transformer.
  './worker': { eager: 74, reason: 'the API wrapper plus the pool and worker plumbing' },
  // The figure functions are drawn without wasm; pipeline() loads the explorer's state and stages when called.
  // Eager: the figures with their own words in English (web/i18n/figures, the training element's
  // among them; zh-CN's load on demand, web/i18n/languages.js), the cell controller (spreadsheet
  // keys, paste notice) and the canvas maps in the page's colours (canvas-theme.js); the model, its
  // presets and stages, the backward and the gallery load on demand.
  './figures': {
    eager: 48,
    reason: 'the SVG figures and the model view (heads(), its layout and the canvas maps: ~8 KiB); pipeline() loads the model it draws on first call',
  },
  // Files in and out (npy, npz, safetensors, JSON): no wasm, no zip library (the platform inflates).
  // With the limits checked before any work (zip central directory, safetensors header, maxBytes).
  './io': { eager: 23.5, reason: 'four readers and two writers as commented sources (about 17 KiB): less than a thumbnail image' },
  // The training tasks and head scores on their own (no wasm, no DOM).
  './train': { eager: 6, reason: 'five seeded tasks, accuracy and head scores, with their checks: smaller than an icon' },
  // What a blog post pays before any figure is scrolled to: the element definitions (and the heatmap).
  // <attn-heatmap> imports heatmap.js when it first draws; the elements' own words in English
  // (web/i18n/figures, figure-text.js) load with them, since every element needs them to draw;
  // zh-CN's load with the page's first zh-CN element.
  './elements': {
    eager: 40,
    reason: 'the four element definitions, their styles and the figure menu: a page pays for no figure code until a figure is drawn',
  },
};
// The SIMD core: the kernels, the binding built for size (cpp/bindings/wasm.cmake), RoPE on the
// engine's Math functions (rope.cpp) and range errors formatted in JS (cpp/bindings/boundary.cpp),
// not libm's tables or musl's printf; and the training core (the transformer, LayerNorm, linear,
// GELU, cross-entropy and AdamW with their backward passes). A separate training build loaded on
// demand would give that back to pages that only draw.
const WASM_BUDGET = { kib: 67, reason: 'the SIMD core is about 90 KB raw; a code size regression (a template blow-up) shows here first' };

// What a page really downloads for its first figure (the entries' on-demand sets above also count
// code that a figure never loads, such as the worker pool): the files named here and everything they
// import statically.
const SCENARIOS = [
  {
    name: 'first <attn-figure>',
    // runtime.js is what lazy.js imports once a figure nears the viewport; seed-004.js the preset a
    // figure with no preset attribute loads (an element loads only the preset it names).
    modules: ['web/elements/index.js', 'web/src/index.js', 'web/elements/runtime.js', 'web/wasm/attention-simd.js', 'web/model/presets/seed-004.js'],
    assets: ['web/figures/figures.css', 'web/wasm/attention-simd.wasm'],
    // A matrix-view figure loads no heatmap, links, gallery, backward stages or editing code, and
    // only its preset; the stages' words in English (web/i18n/stages/en.js) load with it. The
    // training core in the wasm and the API's train/ code are the largest part a page that only
    // draws does not use.
    budget: 220.5,
    reason:
      "the element definitions, the API, one matrix-view figure's code (its preset, forward compute and stages, the matrix drawing), the styles and the SIMD core, as unminified commented sources gzipped file by file (a plain page's worst case; a bundler's minified build is smaller): about one photo of a blog post",
  },
  {
    name: 'an <attn-heatmap> (no wasm)',
    modules: ['web/elements/index.js', 'web/figures/heatmap-or-canvas.js'], // the element imports its figure when it first draws
    assets: ['web/figures/figures.css'],
    // With the canvas form above the cell budget (heatmap-or-canvas.js, canvas-map.js,
    // canvas-theme.js) and the elements' words in English.
    budget: 57.5,
    reason: 'the element definitions, the styles and the heatmap drawing: a heatmap of given weights needs no core',
  },
  {
    name: 'a training <attn-training>',
    // Once in view it loads its drawing and checks (training-view.js), the driver, the API with
    // the pool (its worker's modules count too: they are downloaded once more by the worker) and
    // the SIMD core.
    modules: [
      'web/elements/index.js',
      'web/elements/training-view.js',
      'web/model/train/driver.js',
      'web/src/index.js',
      'web/src/threads/parallel.js',
      'web/src/threads/worker-main.js',
      'web/wasm/attention-simd.js',
    ],
    // The stored run (training-run.json, 12 KiB) loads only under reduced motion, instead of training.
    assets: ['web/figures/figures.css', 'web/wasm/attention-simd.wasm'],
    // Measured 216.9 KiB.
    budget: 224,
    reason:
      'a live-training figure: the elements, the model view, the training driver, the API and its worker, the SIMD core with the training code: about one photo of a blog post',
  },
];

// One self-contained file per figure (issue 11: standaloneHtml()), its raw bytes as a reader
// downloads or attaches it (the code is gzipped inside the file already), gzip beside it.
const STANDALONE = [
  {
    name: 'standalone <attn-heatmap> (8 x 8)',
    spec: { element: 'attn-heatmap', data: { weights: Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => (i === j ? 0.5 : 0.5 / 7))) } },
    budget: 60,
    reason: 'a heatmap file small enough for any e-mail or notebook folder: the elements and figures code, no wasm',
  },
  {
    name: 'standalone <attn-training>',
    spec: { element: 'attn-training', attributes: { task: 'induction' } },
    // Measured 216.3 KiB (in English; the zh-CN words add 5.6 KiB to a zh-CN file).
    budget: 221,
    reason:
      'a figure that trains offline: the elements, the model view, the training driver, the API, the SIMD core and the stored run, gzipped once inside the file',
  },
  {
    name: 'standalone <attn-figure> (seed-004)',
    spec: { element: 'attn-figure', attributes: { preset: 'seed-004', editable: true } },
    budget: 250,
    reason: 'a computing figure: the API, the model, the pipeline code and the SIMD core (about 53 KiB of its 130 KiB raw), gzipped once inside the file',
  },
];

/** The standalone files' rows and problems (async: the files are generated). */
export async function measureStandalone(root) {
  const { standaloneHtml } = await import(pathToFileURL(join(root, 'web/figures/export/standalone-html.js')).href);
  const rows = [];
  const problems = [];
  for (const { name, spec, budget, reason } of STANDALONE) {
    const text = await standaloneHtml(spec);
    const raw = Buffer.byteLength(text);
    rows.push({ entry: name, files: 1, eager: raw, onDemand: 0, wasm: 0, total: raw, gzip: gzipSync(text, { level: 9 }).length });
    if (raw > budget * KB) problems.push(`${name}: ${kib(raw)} KiB > budget ${budget} KiB (${reason})`);
  }
  return { rows, problems };
}

const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const sum = (files) => [...files].reduce((total, f) => total + gz(f), 0);
const kib = (bytes) => (bytes / KB).toFixed(1);

function entryFile(root, target) {
  const spec = typeof target === 'string' ? target : target.default;
  return resolve(root, spec);
}

export function measure(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const rows = [];
  const problems = [];
  for (const [entry, target] of Object.entries(pkg.exports)) {
    if (!/\.m?js$/.test(typeof target === 'string' ? target : target.default)) continue;
    const { eager, lazy, bare } = moduleGraph(entryFile(root, target));
    for (const spec of bare) problems.push(`${entry}: bare specifier ${spec.replace(root, '.')}`);
    const wasm = [...lazy].filter((f) => f.endsWith('.wasm'));
    const simdWasm = wasm.filter((f) => f.includes('simd'));
    const onDemand = [...lazy].filter((f) => !f.endsWith('.wasm'));
    const row = {
      entry,
      files: eager.size + onDemand.length,
      eager: sum(eager),
      onDemand: sum(onDemand),
      wasm: sum(simdWasm),
    };
    row.total = row.eager + row.onDemand + row.wasm;
    rows.push(row);
    const budget = BUDGETS[entry];
    if (budget?.eager !== undefined && row.eager > budget.eager * KB)
      problems.push(`${entry}: eager JS ${kib(row.eager)} KiB > budget ${budget.eager} KiB (${budget.reason})`);
    for (const f of simdWasm) {
      if (gz(f) > WASM_BUDGET.kib * KB) problems.push(`${relative(root, f)}: ${kib(gz(f))} KiB > budget ${WASM_BUDGET.kib} KiB (${WASM_BUDGET.reason})`);
    }
  }
  for (const scenario of SCENARIOS) {
    const files = new Set(scenario.assets.map((f) => join(root, f)));
    for (const m of scenario.modules) for (const f of moduleGraph(join(root, m)).eager) files.add(f);
    const wasm = [...files].filter((f) => f.endsWith('.wasm'));
    const js = [...files].filter((f) => !f.endsWith('.wasm'));
    const row = { entry: scenario.name, files: js.length, eager: sum(js), onDemand: 0, wasm: sum(wasm) };
    row.total = row.eager + row.wasm;
    rows.push(row);
    if (row.total > scenario.budget * KB) problems.push(`${scenario.name}: ${kib(row.total)} KiB > budget ${scenario.budget} KiB (${scenario.reason})`);
  }
  return { rows, problems };
}

export function table(rows) {
  const header = ['entry', 'files', 'eager JS', 'on demand', 'wasm (simd)', 'total'];
  const lines = rows.map((r) => [
    r.entry,
    String(r.files),
    `${kib(r.eager)} KiB`,
    `${kib(r.onDemand)} KiB`,
    r.wasm ? `${kib(r.wasm)} KiB` : '-',
    `${kib(r.total)} KiB`,
  ]);
  const widths = header.map((h, k) => Math.max(h.length, ...lines.map((l) => l[k].length)));
  const format = (cells) => `| ${cells.map((c, k) => (k === 0 ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join(' | ')} |`;
  return [format(header), `|${widths.map((w, k) => (k === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w - 1)}:-`)).join('|')}|`, ...lines.map(format)].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = resolve(at > 0 ? process.argv[at + 1] : fileURLToPath(new URL('..', import.meta.url)));
  const { rows, problems } = measure(root);
  const standalone = await measureStandalone(root);
  problems.push(...standalone.problems);
  console.log(`attention-lab package size (gzip -9 per file, as shipped) in ${root}\n`);
  console.log(table(rows));
  console.log('\nStandalone files (standaloneHtml(), one file each):');
  for (const r of standalone.rows) console.log(`  ${r.entry}: ${kib(r.total)} KiB raw, ${kib(r.gzip)} KiB gzipped`);
  console.log('\nBudgets:');
  for (const [entry, b] of Object.entries(BUDGETS)) console.log(`  ${entry}: eager JS <= ${b.eager} KiB: ${b.reason}`);
  for (const sc of SCENARIOS) console.log(`  ${sc.name}: total <= ${sc.budget} KiB: ${sc.reason}`);
  for (const sa of STANDALONE) console.log(`  ${sa.name}: raw <= ${sa.budget} KiB: ${sa.reason}`);
  console.log(`  wasm (simd) <= ${WASM_BUDGET.kib} KiB: ${WASM_BUDGET.reason}`);
  for (const p of problems) console.error(`package-size: ${p}`);
  process.exit(problems.length ? 1 : 0);
}
