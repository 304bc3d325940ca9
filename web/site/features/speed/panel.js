// The speed panel: times the forward pass for a chosen size (T, d, heads) in this browser, wasm
// SIMD vs wasm scalar vs plain JavaScript, in a Web Worker (speed/worker.js) so the page never
// waits; results fill in round by round: median ms per call, GFLOP/s and the ratio to plain JS.
import { h } from '../../../figures/dom.js';
import { forwardFlops } from './timing.js';

const CHOICES = { T: [32, 64, 128, 256, 512, 1024], d: [16, 32, 64, 128], heads: [1, 2, 4, 8] };
const LABELS = { T: 'Tokens T', d: 'Width d', heads: 'Heads H' };
const NAMES = { 'wasm-simd': 'wasm SIMD', 'wasm-scalar': 'wasm scalar', 'plain-js': 'plain JavaScript' };
const BUDGET_MS = 3000;

const fixed = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '…');

function resultRows(stats, size) {
  const flops = forwardFlops(size);
  const base = stats['plain-js']?.median;
  const best = Math.min(...Object.values(stats).map((s) => s.median).filter(Number.isFinite));
  return Object.entries(stats).map(([id, s]) => {
    const gflops = flops / (s.median * 1e6);
    const ratio = base / s.median;
    return h('tr', { dataset: { contender: id, median: s.median } },
      h('th', { scope: 'row' }, NAMES[id] ?? id),
      h('td', {}, fixed(s.median, s.median < 1 ? 3 : 1)),
      h('td', {}, fixed(gflops, 2)),
      h('td', {}, id === 'plain-js' ? '1×' : `${fixed(ratio, 1)}×`),
      h('td', { class: 'speed-bar-cell', 'aria-hidden': 'true' },
        h('span', { class: `speed-bar is-${id}`, style: `width: ${Math.max(2, Math.min(100, (100 * best) / s.median)).toFixed(1)}%` })),
      h('td', { class: 'speed-samples' }, String(s.samples.length)));
  });
}

function mount(container, { store, announce }) {
  let worker = null;
  let size = null;
  const selects = Object.fromEntries(Object.keys(CHOICES).map((key) => {
    const select = h('select', { id: `speed-${key}`, onchange: () => store.update((s) => ({ ...s, speed: { ...s.speed, [key]: Number(select.value) } })) },
      CHOICES[key].map((n) => h('option', { value: n }, String(n))));
    return [key, select];
  }));
  const runButton = h('button', { type: 'button', class: 'button-primary', onclick: () => (worker ? stop('Cancelled.') : start()) }, 'Run');
  const status = h('p', { class: 'speed-status', role: 'status' }, 'Times the forward pass at this size: median of repeated calls, taking turns.');
  const body = h('tbody', {});
  const table = h('table', { class: 'speed-table', hidden: true },
    h('thead', {}, h('tr', {}, ['', 'ms / call', 'GFLOP/s', 'vs plain JS', '', 'samples'].map((t) => h('th', { scope: 'col' }, t)))),
    body);

  function stop(message) {
    worker?.terminate();
    worker = null;
    runButton.textContent = 'Run';
    if (message) status.textContent = message;
  }

  function start() {
    size = { ...store.get().speed };
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    runButton.textContent = 'Stop';
    status.textContent = 'Loading both wasm builds in a worker…';
    body.replaceChildren();
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'ready') status.textContent = `Timing ${data.contenders.map((c) => NAMES[c]).join(', ')} at T = ${size.T}, d = ${size.d}, H = ${size.heads}…`;
      if (data.type === 'round' || data.type === 'done') {
        table.hidden = false;
        body.replaceChildren(...resultRows(data.stats, size));
      }
      if (data.type === 'done') {
        stop(`Done: T = ${size.T}, d = ${size.d}, H = ${size.heads}, ${(forwardFlops(size) / 1e6).toFixed(1)} MFLOP per call (4 H T² d).`);
        announce('Speed measured');
      }
      if (data.type === 'error') stop(`The timing failed: ${data.message}`);
    });
    worker.addEventListener('error', (event) => stop(`The timing worker failed: ${event.message ?? 'unknown error'}`));
    worker.postMessage({ type: 'run', ...size, budgetMs: BUDGET_MS });
  }

  container.append(h('section', { class: 'panel-card speed-card', 'aria-labelledby': 'speed-title' },
    h('header', { class: 'band-head' },
      h('h2', { class: 'band-title', id: 'speed-title' }, 'Speed in this browser'),
      h('p', { class: 'band-lede' }, 'The same attention three ways: the core compiled to wasm with SIMD, without, and plain JavaScript loops. Timed in a worker, so the page stays responsive.')),
    h('div', { class: 'speed-controls' },
      Object.entries(selects).map(([key, select]) => h('div', { class: 'field' }, h('label', { for: select.id, class: 'field-label' }, LABELS[key]), select)),
      runButton),
    status,
    h('div', { class: 'speed-scroll' }, table)));

  return {
    update(state) {
      for (const [key, select] of Object.entries(selects)) select.value = String(state.speed[key]);
    },
  };
}

export const speedPanel = { id: 'speed', slot: 'main', order: 300, mount };
