// The speed panel: times the forward pass for a chosen size (T, d, heads) in this browser, the
// library's wasm builds (relaxed SIMD where the engine has it, SIMD, scalar) vs plain JavaScript, in
// a Web Worker (speed/worker.js) so the page never waits, and reads this machine's ceiling through
// wasm SIMD in the same worker; results fill in round by round: median ms per call, GFLOP/s, the
// fraction of the ceiling and the ratio to plain JS (report.js), and can be copied as Markdown.
import { h } from '../../../figures/dom.js';
import { copyButton, copyWords } from '../../controls/copy-button.js';
import { forwardFlops } from '../../../measure/timing.js';
import { ceilingSentence, formatGflops, formatMs, formatPercent, formatRatio, markdownReport, speedRows } from './report.js';

const CHOICES = { T: [32, 64, 128, 256, 512, 1024], d: [16, 32, 64, 128], heads: [1, 2, 4, 8] };
const BUDGET_MS = 3000;

// The instructions a ceiling is read with, set as code in the sentence (in either language).
const INSTRUCTION = /(f32x4(?: mul\+add|\.relaxed_madd))/;
const withCode = (text) => text.split(INSTRUCTION).map((part, i) => (i % 2 ? h('code', {}, part) : part));

function resultRows(rows, t) {
  const best = Math.min(...rows.map((r) => r.median).filter(Number.isFinite));
  return rows.map((r) =>
    h(
      'tr',
      { dataset: { contender: r.id, median: r.median, gflops: r.gflops, ofCeiling: r.ofCeiling ?? '' } },
      h('th', { scope: 'row' }, t(`speed.name.${r.id}`)),
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

function mount(container, { store, announce, t }) {
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
  const runButton = h('button', { type: 'button', class: 'button-primary', onclick: () => (worker ? stop(t('speed.cancelled')) : start()) }, t('speed.run'));
  const status = h('p', { class: 'speed-status', role: 'status' }, t('speed.intro'));
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
        ['', 'speed.col-ms', 'speed.col-gflops', 'speed.col-ceiling', 'speed.col-plain', '', 'speed.col-samples'].map((key) =>
          h('th', { scope: 'col' }, key ? t(key) : ''),
        ),
      ),
    ),
    body,
  );
  const ceilingNote = h('p', { class: 'speed-ceiling', hidden: true });
  const report = h('textarea', { class: 'speed-report-text', id: 'speed-report-text', readonly: true, rows: 9, spellcheck: 'false' });
  const reportBox = h(
    'details',
    { class: 'speed-report', hidden: true },
    h('summary', {}, t('speed.markdown-summary')),
    h('label', { for: report.id, class: 'field-label' }, t('speed.markdown')),
    report,
    copyButton(report, announce, t('speed.results'), {}, copyWords(t, t('speed.results'))),
  );
  let ceiling = null;

  function showCeiling(value) {
    ceiling = value;
    ceilingNote.hidden = false;
    ceilingNote.replaceChildren(...withCode(ceilingSentence(ceiling, t)));
    ceilingNote.dataset.simd = ceiling.simd ?? '';
    ceilingNote.dataset.relaxed = ceiling.relaxed ?? '';
  }

  function stop(message) {
    worker?.terminate();
    worker = null;
    runButton.textContent = t('speed.run');
    if (message) status.textContent = message;
  }

  function start() {
    size = { ...store.get().speed };
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    runButton.textContent = t('speed.stop');
    body.replaceChildren();
    reportBox.hidden = true;
    status.textContent = t('speed.reading-ceiling');
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'ceiling') {
        showCeiling(data.ceiling);
        status.textContent = t('speed.loading');
      }
      if (data.type === 'ready')
        status.textContent = t('speed.timing', { ...size, names: data.contenders.map((c) => t(`speed.name.${c}`)).join(t('speed.list-gap')) });
      if (data.type === 'done') showCeiling(data.ceiling);
      if (data.type === 'round' || data.type === 'done') {
        table.hidden = false;
        body.replaceChildren(...resultRows(speedRows(data.stats, size, ceiling), t));
      }
      if (data.type === 'done') {
        report.value = markdownReport(speedRows(data.stats, size, ceiling), size, ceiling, {
          userAgent: navigator.userAgent,
          cores: navigator.hardwareConcurrency,
        });
        reportBox.hidden = false;
        stop(t('speed.done', { ...size, mflop: (forwardFlops(size) / 1e6).toFixed(1) }));
        announce(t('speed.measured'));
      }
      if (data.type === 'error') stop(t('speed.failed', { message: data.message }));
    });
    worker.addEventListener('error', (event) => stop(t('speed.worker-failed', { message: event.message ?? t('speed.unknown-error') })));
    worker.postMessage({ type: 'run', ...size, budgetMs: BUDGET_MS });
  }

  container.append(
    h(
      'section',
      { class: 'panel-card speed-card', 'aria-labelledby': 'speed-title' },
      h(
        'header',
        { class: 'band-head' },
        h('h2', { class: 'band-title', id: 'speed-title' }, t('speed.title')),
        h('p', { class: 'band-lede' }, t('speed.lede')),
      ),
      h(
        'div',
        { class: 'speed-controls' },
        Object.entries(selects).map(([key, select]) =>
          h('div', { class: 'field' }, h('label', { for: select.id, class: 'field-label' }, t(`speed.size.${key}`)), select),
        ),
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
