// The speed panel: times the forward pass for a chosen size (T, d, heads) in this browser, the
// library's wasm builds (relaxed SIMD where the engine has it, SIMD, scalar) vs plain JavaScript, in
// a Web Worker (speed/worker.js) so the page never waits, and reads this machine's ceiling through
// wasm SIMD in the same worker; results fill in round by round: median ms per call, GFLOP/s, the
// fraction of the ceiling and the ratio to plain JS (report.js), and can be copied as Markdown.
import { h } from '../../../figures/dom.js';
import { copyButton } from '../../controls/copy-button.js';
import { forwardFlops } from '../../../measure/timing.js';
import { ceilingSentence, formatGflops, formatMs, formatPercent, formatRatio, markdownReport, NAMES, speedRows } from './report.js';

const CHOICES = { T: [32, 64, 128, 256, 512, 1024], d: [16, 32, 64, 128], heads: [1, 2, 4, 8] };
const LABELS = { T: 'Tokens T', d: 'Width d', heads: 'Heads H' };
const BUDGET_MS = 3000;

function resultRows(rows) {
  const best = Math.min(...rows.map((r) => r.median).filter(Number.isFinite));
  return rows.map((r) =>
    h(
      'tr',
      { dataset: { contender: r.id, median: r.median, gflops: r.gflops, ofCeiling: r.ofCeiling ?? '' } },
      h('th', { scope: 'row' }, r.name),
      h('td', {}, formatMs(r.median)),
      h('td', {}, formatGflops(r.gflops)),
      h('td', {}, formatPercent(r.ofCeiling)),
      h('td', {}, r.id === 'plain-js' ? '1×' : `${formatRatio(r.vsPlain)}×`),
      h(
        'td',
        { class: 'speed-bar-cell', 'aria-hidden': 'true' },
        h('span', { class: `speed-bar is-${r.id}`, style: `width: ${Math.max(2, Math.min(100, (100 * best) / r.median)).toFixed(1)}%` }),
      ),
      h('td', { class: 'speed-samples' }, String(r.samples)),
    ),
  );
}

function mount(container, { store, announce }) {
  let worker = null;
  let size = null;
  const selects = Object.fromEntries(
    Object.keys(CHOICES).map((key) => {
      const select = h(
        'select',
        { id: `speed-${key}`, onchange: () => store.update((s) => ({ ...s, speed: { ...s.speed, [key]: Number(select.value) } })) },
        CHOICES[key].map((n) => h('option', { value: n }, String(n))),
      );
      return [key, select];
    }),
  );
  const runButton = h('button', { type: 'button', class: 'button-primary', onclick: () => (worker ? stop('Cancelled.') : start()) }, 'Run');
  const status = h('p', { class: 'speed-status', role: 'status' }, 'Times the forward pass at this size: median of repeated calls, taking turns.');
  const body = h('tbody', {});
  const table = h(
    'table',
    { class: 'speed-table', hidden: true },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['', 'ms / call', 'GFLOP/s', 'of ceiling', 'vs plain JS', '', 'samples'].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    body,
  );
  const ceilingNote = h('p', { class: 'speed-ceiling', hidden: true });
  const report = h('textarea', { class: 'speed-report-text', id: 'speed-report-text', readonly: true, rows: 9, spellcheck: 'false' });
  const reportBox = h(
    'details',
    { class: 'speed-report', hidden: true },
    h('summary', {}, 'These numbers as Markdown, to share with the machine they ran on'),
    h('label', { for: report.id, class: 'field-label' }, 'Markdown'),
    report,
    copyButton(report, announce, 'Speed results'),
  );
  let ceiling = null;

  function showCeiling(value) {
    ceiling = value;
    ceilingNote.hidden = false;
    ceilingNote.textContent = ceilingSentence(ceiling);
    ceilingNote.dataset.simd = ceiling.simd ?? '';
    ceilingNote.dataset.relaxed = ceiling.relaxed ?? '';
  }

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
    body.replaceChildren();
    reportBox.hidden = true;
    status.textContent = "Reading this machine's ceiling…";
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'ceiling') {
        showCeiling(data.ceiling);
        status.textContent = 'Loading the wasm builds in a worker…';
      }
      if (data.type === 'ready')
        status.textContent = `Timing ${data.contenders.map((c) => NAMES[c]).join(', ')} at T = ${size.T}, d = ${size.d}, H = ${size.heads}…`;
      if (data.type === 'done') showCeiling(data.ceiling);
      if (data.type === 'round' || data.type === 'done') {
        table.hidden = false;
        body.replaceChildren(...resultRows(speedRows(data.stats, size, ceiling)));
      }
      if (data.type === 'done') {
        report.value = markdownReport(speedRows(data.stats, size, ceiling), size, ceiling, {
          userAgent: navigator.userAgent,
          cores: navigator.hardwareConcurrency,
        });
        reportBox.hidden = false;
        stop(`Done: T = ${size.T}, d = ${size.d}, H = ${size.heads}, ${(forwardFlops(size) / 1e6).toFixed(1)} MFLOP per call (4 H T² d).`);
        announce('Speed measured');
      }
      if (data.type === 'error') stop(`The timing failed: ${data.message}`);
    });
    worker.addEventListener('error', (event) => stop(`The timing worker failed: ${event.message ?? 'unknown error'}`));
    worker.postMessage({ type: 'run', ...size, budgetMs: BUDGET_MS });
  }

  container.append(
    h(
      'section',
      { class: 'panel-card speed-card', 'aria-labelledby': 'speed-title' },
      h(
        'header',
        { class: 'band-head' },
        h('h2', { class: 'band-title', id: 'speed-title' }, 'Speed in this browser'),
        h(
          'p',
          { class: 'band-lede' },
          'The same attention several ways: the core compiled to wasm with relaxed SIMD (where this browser has it), with SIMD, without, and plain JavaScript loops, each also as a fraction of what this machine can do through wasm SIMD. Timed in a worker, so the page stays responsive.',
        ),
      ),
      h(
        'div',
        { class: 'speed-controls' },
        Object.entries(selects).map(([key, select]) => h('div', { class: 'field' }, h('label', { for: select.id, class: 'field-label' }, LABELS[key]), select)),
        runButton,
      ),
      status,
      h('div', { class: 'speed-scroll' }, table),
      ceilingNote,
      reportBox,
    ),
  );

  return {
    update(state) {
      for (const [key, select] of Object.entries(selects)) select.value = String(state.speed[key]);
    },
  };
}

export const speedPanel = { id: 'speed', slot: 'main', order: 300, mount };
