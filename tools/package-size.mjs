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
  // 30 -> 34 KiB for issue 8's checks (own-property option copies, typed arrays measured through the
  // engine's getters, float32 overflow scans, the healing runtime) and the relaxed build's loader.
  // 34 -> 38 KiB for issue 12's API: rope, window and ALiBi options, layer positions, the KV cache.
  // 38 -> 39 KiB for issue 9's split of web/src (+0.7 KiB: the Buffers table with what each block is,
  // boundary/buffers.js, and ops/sdpa.js apart from the checked call it shares, each a file of its own).
  // 39 -> 40 KiB for issue 12's decode steps: the cached layer forward with its k/v resident in wasm
  // memory, and q, k, v checked finite by one SIMD scan of the arena (+0.6 KiB).
  // 40 -> 41 KiB for issue 13's options.out (the caller's output array: its checks, its write after
  // the overflow scan, the pool's; +0.8 KiB, most of it their comments). 41 -> 42 KiB for issue
  // 13's tile choice: the tile option's check, attn.kernel, re-setting the tile on a healed
  // instance and the on-demand import of the calibration (+0.5 KiB; the calibration itself, 2 KiB,
  // loads only with the relaxed build).
  // 42 -> 45 KiB (measured 44.5) for issue 37's input boundary (own fields only, nested sizes measured
  // before flattening, detached arrays named) and the KV caches' lifetime (dispose, versions, the
  // out-of-memory message naming what holds the memory). -> 55 KiB for issue 35's attn.transformer
  // (web/src/train: its configuration, batches, loss targets, optimizer options and parameter maps,
  // +9.7 KiB): the synchronous API returns a model at once, so its code loads with the API.
  '.': { eager: 55, reason: 'the API wrapper (no wasm yet) should cost less than a small image' },
  // 40 -> 48 KiB: the API's growth above plus the pool's dead-worker replacement.
  // 48 -> 53 KiB: the same through the pool. 53 -> 54 KiB: issue 9's split above (+0.8 KiB).
  // 54 -> 55 KiB: the decode steps above, through the pool's entry. 55 -> 56 KiB: options.out above.
  // 56 -> 57 KiB: the tile choice above.
  // 57 -> 61.5 KiB (measured 60.9): issue 37 above, and layer handles pinned to their worker's
  // generation. -> 73 KiB: issue 35's transformer above and the pool's remote transformer (+11.1 KiB).
  './worker': { eager: 73, reason: 'the API wrapper plus the pool and worker plumbing' },
  // The figure functions are drawn without wasm; pipeline() loads the explorer's state and stages when called.
  // 76 -> 77 KiB: issue 9's palette.js, the colours JS reads (canvas maps), written once (+0.4 KiB).
  // 77 -> 70 KiB: issue 9 (the gallery's figure menu a hook, the backward's code passed to compute,
  // standaloneHtml() loading its packer on first call): 69.2 KiB. -> 72.5 KiB (measured 71.7): the
  // presets' catalog (loaded one by one for <attn-figure>, +0.9 KiB) and the forward and backward
  // stage registration apart (+0.8 KiB), while this synchronous entry still loads them all; custom
  // ALiBi slopes (+0.8 KiB). -> 25 KiB (measured 24.5): pipeline(), pipelineState() and stageIds()
  // async, loading the model on their first call (the explorer's state, one preset, the forward
  // compute and stages; the backward and the gallery only when shown): -47.3 KiB moved on demand.
  // 25 -> 30 KiB (measured 29.2) with issue 37's canvas heatmap above a cell budget and issue 33's
  // spreadsheet keys, paste notice and their en/zh-CN messages in the cell controller.
  // 30 -> 33 KiB (measured 32.0) with issue 33's canvas maps in the page's colours (canvas-theme.js:
  // the --attn-* custom properties read per canvas and mixed in Oklab, as figures.css mixes them).
  // 33 -> 34 KiB (measured 33.3) with issue 34's refusal of renamed options (renamed.js).
  // 34 -> 43 KiB (measured 42.4) with issue 33's figure words and errors in English and Chinese
  // (web/i18n/figures, +9.1 KiB: the functions draw synchronously in the lang asked, so both catalogs load with them).
  './figures': { eager: 43, reason: 'the SVG figures and the model view (heads(), canvas maps: ~5 KiB); pipeline() loads the model it draws on first call' },
  // Files in and out (npy, npz, safetensors, JSON): no wasm, no zip library (the platform inflates).
  // 20 -> 22.5 KiB (measured 22.0) with issue 37's limits before work (zip central directory and
  // safetensors header validated before anything is inflated or decoded, the maxBytes cap).
  './io': { eager: 22.5, reason: 'four readers and two writers as commented sources (about 17 KiB): less than a thumbnail image' },
  // Issue 36: the training tasks and head scores on their own (measured 5.4 KiB; no wasm, no DOM).
  './train': { eager: 6, reason: 'five seeded tasks, accuracy and head scores, with their checks: smaller than an icon' },
  // What a blog post pays before any figure is scrolled to: the element definitions (and the heatmap).
  // 20 -> 23 KiB: <attn-heads> and the src/tensor/index attributes (their readers load on use).
  // 23 -> 24 KiB: issue 9's one figure menu (menu-button.js, shared with the explorer) as the toolbar.
  // 24 -> 25 KiB: issue 11's HTML item in the one menu (saveHtml, standaloneSpec; the file's code loads on use).
  // 25 -> 19.5 KiB (measured 18.9): <attn-heatmap> imports heatmap.js (with colour, legend, svg
  // and keyboard code, ~6 KiB) when it first draws.
  // 19.5 -> 22 KiB (measured 21.3) with issue 37's bounded src cache, child-JSON type checks and the
  // menu listener that leaves with its element.
  // 22 -> 26 KiB (measured 25.5) with issue 33's lang attribute and the elements' own words in two
  // languages (web/i18n/figures, figure-text.js), which every element needs before it draws.
  // 26 -> 28 KiB (measured 27.8) with issue 34's refusal of renamed attributes and keys.
  // 28 -> 34.5 KiB (measured 34.0) with issue 33's figure words and the elements' errors in both languages.
  './elements': {
    eager: 34.5,
    reason: 'the three element definitions, their styles and the figure menu: a page pays for no figure code until a figure is drawn',
  },
};
// 45 -> 50 KiB with issue 12 (window and ALiBi in every row kernel, RoPE with libm's double cos,
// sin and pow): the core went from 37 to 49 KiB gzipped. 50 -> 39 KiB: most of that was libm's
// tables and code behind RoPE's cos, sin and pow (now the engine's Math functions, rope.cpp), and
// the binding is built for size (cpp/bindings/wasm.cmake): 38.0 KiB. 39 -> 34 KiB: the binding's
// error messages are formatted in JS, not by musl's printf (cpp/bindings/boundary.cpp): 33.3 KiB.
// 34 -> 37 KiB: issue 12's decode steps (layer_forward_cached with the cache resident, the SIMD
// scan of the arena, the dot-rows kernel of the one-query row path): 36.0 KiB.
// 37 -> 67 KiB: issue 35's training core linked in (the transformer, its registry binding, LayerNorm,
// linear, GELU, cross-entropy and AdamW with their backward passes, libm's erf, exp, log and pow):
// 66.4 KiB. A separate training build loaded on demand would give it back to pages that only draw.
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
    // 150 -> 155 KiB with issue 8's API checks, -> 171 KiB with issue 12's API and core (above), ->
    // 178 KiB with its explorer stages and presets (+6.5 KiB), -> 180 KiB with issue 9's cell
    // controller, public toTensor and one figure menu (+2 KiB). -> 146 KiB (measured 145.0: JS
    // 109.0, wasm 36.0) with issue 9's size work: a matrix-view figure loads no heatmap, links or
    // gallery code (-5.7 KiB), no backward stages (-1.9), only its preset (-3.7) and no editing code
    // until it is editable (-2.4); the core's libm-free RoPE and JS-formatted errors (-16 KiB); and
    // custom ALiBi slopes (+1.1 KiB). -> 147 KiB (measured 146.4) with issue 13's tile choice: its
    // loader code above and the core's five tile bindings (+0.9 KB raw).
    // -> 152 KiB (measured 151.4) with issue 33: the stages' words in English and Chinese
    // (web/i18n/stages/*.js, +4.1 KiB gzipped; the pages' whole catalogs stay out of figures).
    // -> 166 KiB with issue 37's API hardening (above) and issue 33's figure data checked as given
    // (given.js, 3.3 KiB), the number grammar and the editing messages in two languages, which load
    // with every figure: issue 34 may move them on demand. -> 206 KiB with issue 35's training core
    // in the wasm (+30 KiB) and the API's train/ code (+9.7 KiB): a build without the training core
    // for pages that only draw would give those back (left to issue 34). -> 210 KiB (measured 207.5)
    // with the elements' words in two languages (above). -> 216.5 KiB (measured 216.1) with the
    // figures' own words and the elements' errors in two languages (web/i18n/figures, above).
    budget: 216.5,
    reason:
      "the element definitions, the API, one matrix-view figure's code (its preset, forward compute and stages, the matrix drawing), the styles and the SIMD core, as unminified commented sources gzipped file by file (a plain page's worst case; a bundler's minified build is smaller): about one photo of a blog post",
  },
  {
    name: 'an <attn-heatmap> (no wasm)',
    modules: ['web/elements/index.js', 'web/figures/heatmap-or-canvas.js'], // the element imports its figure when it first draws
    assets: ['web/figures/figures.css'],
    // 25 -> 26 KiB: issue 11's HTML item in the menu (above). -> 27 KiB (measured 26.4): <attn-figure>'s
    // on-demand loading of the gallery, backward stages, preset and editing code (+0.4 KiB).
    // -> 35 KiB (measured 34.2) with issue 37's canvas form above the cell budget (heatmap-or-canvas.js
    // and canvas-map.js, which the element's figure now imports) and the child-JSON checks.
    // -> 38 KiB (measured 37.0) with issue 33's canvas-theme.js, which the canvas form imports.
    // -> 42 KiB (measured 41.3) with the elements' words in two languages and their lang attribute.
    // -> 44 KiB (measured 43.7) with issue 34's refusal of renamed attributes and keys.
    // -> 50.5 KiB (measured 49.9) with issue 33's figure words and the elements' errors in both languages.
    budget: 50.5,
    reason: 'the element definitions, the styles and the heatmap drawing: a heatmap of given weights needs no core',
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
