// The Generate panel: the example's tokens fed one at a time through an attention layer's KV
// cache (stepper.js), as a decoder generates. Each step shows the token that joins, the K and V
// rows the cache holds so far, the new row of attention weights and the output row, and how far
// they are from the full forward's row t that the pipeline above shows. Step, Reset and
// Play/Pause are buttons; each step is announced in the page's live region.
import { h } from '../../../figures/dom.js';
import { matrix } from '../../../figures/index.js';
import { presetById } from '../../../model/presets/index.js';
import { createStepper } from './stepper.js';
import { pageLang } from '../../page-lang.js';

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// float32 rounding of the few sums a row takes: the line says 'equals' within 1e-5 of the largest
// entry, and 'differs' past it (a causal-free full forward lets a row see later tokens).
const agrees = (diff, size) => diff <= 1e-5 * Math.max(1, size);
const digits = (diff, t) => (diff === 0 ? t('generate.last-bit') : diff.toExponential(0));
const largest = (x) => x.data.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

/** One check line: "Row 3 of P equals the full forward's to 3e-8." */
function checkLine(kind, what, diff, size, t) {
  const ok = agrees(diff, size);
  return h(
    'li',
    { class: `generate-check ${ok ? 'is-ok' : 'is-off'}`, dataset: { check: kind, diff: String(diff) } },
    h('span', { class: 'generate-check-mark', 'aria-hidden': 'true' }, ok ? '✓' : '≠'),
    t(ok ? 'generate.check-equal' : 'generate.check-differ', { what, digits: digits(diff, t) }),
  );
}

function figure(label, node) {
  return h('figure', { class: 'figure generate-figure' }, h('figcaption', { class: 'figure-label' }, label), h('div', { class: 'figure-scroll' }, node));
}

function stepView(state, stepper, t) {
  const last = stepper.steps.at(-1);
  const tokens = h(
    'ol',
    { class: 'generate-tokens', 'aria-label': t('generate.tokens') },
    state.tokens.map((token, t) =>
      h('li', { class: `generate-token${t < stepper.steps.length ? ' is-cached' : ''}`, 'aria-current': last && t === last.t ? 'step' : null }, token),
    ),
  );
  if (!last) return [tokens, h('p', { class: 'generate-empty' }, t('generate.empty'))];
  const seen = state.tokens.slice(0, last.t + 1);
  const head = state.heads > 1 ? t(state.kvHeads < state.heads ? 'generate.head-kv' : 'generate.head', { head: state.head, kv: last.kvHead }) : '';
  const n = last.t + 1;
  const causal = state.causal === 'none' ? h('p', { class: 'hint-line' }, t('generate.no-causal')) : null;
  return [
    tokens,
    h(
      'div',
      { class: 'generate-figures' },
      figure(
        t('generate.k-cache', { head, n, capacity: last.capacity }),
        matrix(last.k, { lang: pageLang(), stage: 'generate-k', title: t('generate.k-title'), rowLabels: seen, legend: false, attrs: { 'data-step': last.t } }),
      ),
      figure(
        t('generate.v-cache', { head }),
        matrix(last.v, { lang: pageLang(), stage: 'generate-v', title: t('generate.v-title'), rowLabels: seen, legend: false, attrs: { 'data-step': last.t } }),
      ),
      figure(
        t('generate.weights-row', { head }),
        matrix(last.weights, {
          lang: pageLang(),
          stage: 'generate-weights',
          title: t('generate.weights-title', { n }),
          colorScale: 'weights',
          rowLabels: [state.tokens[last.t]],
          colLabels: seen,
          legend: false,
          attrs: { 'data-step': last.t },
        }),
      ),
      figure(
        t(state.wo && state.heads > 1 ? 'generate.output-row-wo' : 'generate.output-row'),
        matrix(last.output, {
          lang: pageLang(),
          stage: 'generate-output',
          title: t('generate.output-title', { n }),
          rowLabels: [state.tokens[last.t]],
          legend: false,
          attrs: { 'data-step': last.t },
        }),
      ),
    ),
    h(
      'ul',
      { class: 'generate-checks' },
      checkLine('weights', t('generate.what-weights', { n }), last.diffs.weights, 1, t),
      checkLine('output', t('generate.what-output', { n }), last.diffs.output, largest(last.full), t),
      h(
        'li',
        { class: 'generate-check is-ok', dataset: { check: 'rows', diff: String(last.diffs.rows) } },
        h('span', { class: 'generate-check-mark', 'aria-hidden': 'true' }, '✓'),
        t('generate.check-rows', { digits: digits(last.diffs.rows, t) }),
      ),
    ),
    causal,
  ];
}

function mount(container, app) {
  const { announce, t } = app;
  const playButton = h(
    'button',
    { type: 'button', class: 'button-primary generate-play', 'aria-pressed': 'false', onclick: () => (stepper.playing ? stepper.pause() : stepper.play()) },
    t('generate.play'),
  );
  const stepButton = h(
    'button',
    { type: 'button', class: 'icon-button', 'aria-label': t('generate.step-label'), onclick: () => stepper.step() },
    t('generate.step'),
  );
  const resetButton = h(
    'button',
    { type: 'button', class: 'icon-button', 'aria-label': t('generate.reset-label'), onclick: () => stepper.reset() },
    t('generate.reset'),
  );
  const status = h('p', { class: 'panel-status generate-status' });
  const note = h('p', { class: 'panel-status generate-note', hidden: true });
  const body = h('div', { class: 'generate-body' });
  const lede = h('p', { class: 'band-lede' });
  container.append(
    h(
      'section',
      { class: 'panel-card generate-card', 'aria-labelledby': 'generate-title', dataset: { panel: 'generate' } },
      h('header', { class: 'band-head' }, h('h2', { class: 'band-title', id: 'generate-title' }, t('generate.title')), lede),
      h('div', { class: 'generate-buttons' }, playButton, stepButton, resetButton),
      note,
      status,
      body,
    ),
  );

  let last = null;
  let announced = 0;
  const stepper = createStepper(app.attn, () => render(true), { reducedMotion, lang: app.lang });

  function render(fromStepper = false) {
    if (!last) return;
    const { state } = last;
    const blocked = Boolean(stepper.blocker);
    note.hidden = !blocked;
    note.textContent = blocked ? t('generate.off', { reason: stepper.blocker }) : '';
    for (const b of [playButton, stepButton, resetButton]) b.disabled = blocked;
    const n = stepper.steps.length;
    stepButton.disabled = blocked || n >= stepper.T;
    resetButton.disabled = blocked || n === 0;
    playButton.textContent = t(stepper.playing ? 'generate.pause' : 'generate.play');
    playButton.setAttribute('aria-pressed', String(stepper.playing));
    playButton.title = t(reducedMotion() ? 'generate.play-title-reduced' : 'generate.play-title');
    status.textContent = blocked
      ? ''
      : n === 0
        ? t('generate.status-empty', { T: stepper.T })
        : t('generate.status', { n, T: stepper.T, token: stepper.steps.at(-1).token, rows: stepper.steps.at(-1).cacheLength });
    body.replaceChildren(...(blocked ? [] : stepView(state, stepper, t)).filter(Boolean));
    if (fromStepper && n !== announced) {
      const s = stepper.steps.at(-1);
      announce(
        n === 0
          ? t('generate.announce-empty')
          : t(agrees(s.diffs.weights, 1) ? 'generate.announce-equal' : 'generate.announce-differ', { n, T: stepper.T, token: s.token }),
      );
    }
    announced = n;
  }

  return {
    update(state, result) {
      lede.textContent = t(state.heads > 1 && state.wo ? 'generate.lede-multi' : 'generate.lede-single', { n: state.tokens.length });
      // A preset that opens here (the decode preset) scrolls the panel into view when picked.
      if (state.preset !== last?.state.preset && presetById(state.preset)?.opens === 'generate') {
        requestAnimationFrame(() => container.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' }));
      }
      last = { state, result };
      stepper.observe(state, result);
      render();
    },
  };
}

export const generatePanel = { id: 'generate', slot: 'main', order: 150, mount };
