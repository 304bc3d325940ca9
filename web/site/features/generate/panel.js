// The Generate panel: the example's tokens fed one at a time through an attention layer's KV
// cache (stepper.js), as a decoder generates. Each step shows the token that joins, the K and V
// rows the cache holds so far, the new row of attention weights and the output row, and how far
// they are from the full forward's row t that the pipeline above shows. Step, Reset and
// Play/Pause are buttons; each step is announced in the page's live region.
import { h } from '../../../figures/dom.js';
import { matrix } from '../../../figures/index.js';
import { presetById } from '../../../model/presets/index.js';
import { createStepper } from './stepper.js';

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// float32 rounding of the few sums a row takes: the line says 'equals' within 1e-5 of the largest
// entry, and 'differs' past it (a causal-free full forward lets a row see later tokens).
const agrees = (diff, size) => diff <= 1e-5 * Math.max(1, size);
const digits = (diff) => (diff === 0 ? 'the last bit' : diff.toExponential(0));
const largest = (t) => t.data.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

/** One check line: "Row 3 of P equals the full forward's row 3 to 3e-8." */
function checkLine(kind, text, diff, size) {
  const ok = agrees(diff, size);
  return h(
    'li',
    { class: `generate-check ${ok ? 'is-ok' : 'is-off'}`, dataset: { check: kind, diff: String(diff) } },
    h('span', { class: 'generate-check-mark', 'aria-hidden': 'true' }, ok ? '✓' : '≠'),
    `${text} ${ok ? 'equals' : 'differs from'} the full forward’s to ${digits(diff)}.`,
  );
}

function figure(label, node) {
  return h('figure', { class: 'figure generate-figure' }, h('figcaption', { class: 'figure-label' }, label), h('div', { class: 'figure-scroll' }, node));
}

function stepView(state, stepper) {
  const last = stepper.steps.at(-1);
  const tokens = h(
    'ol',
    { class: 'generate-tokens', 'aria-label': 'Tokens' },
    state.tokens.map((token, t) =>
      h('li', { class: `generate-token${t < stepper.steps.length ? ' is-cached' : ''}`, 'aria-current': last && t === last.t ? 'step' : null }, token),
    ),
  );
  if (!last) return [tokens, h('p', { class: 'generate-empty' }, 'The cache is empty. Step feeds the first token.')];
  const seen = state.tokens.slice(0, last.t + 1);
  const head = state.heads > 1 ? ` (head ${state.head}${state.kvHeads < state.heads ? `, kv head ${last.kvHead}` : ''})` : '';
  const n = last.t + 1;
  const causal =
    state.causal === 'none'
      ? h(
          'p',
          { class: 'hint-line' },
          'The full forward here has no causal mask, so its rows also see later tokens; a cache only ever holds earlier ones. Pick a causal mask to compare.',
        )
      : null;
  return [
    tokens,
    h(
      'div',
      { class: 'generate-figures' },
      figure(
        `K cache${head}: ${n} of ${last.capacity} rows`,
        matrix(last.k, { stage: 'generate-k', title: 'Cached keys', rowLabels: seen, legend: false, attrs: { 'data-step': last.t } }),
      ),
      figure(`V cache${head}`, matrix(last.v, { stage: 'generate-v', title: 'Cached values', rowLabels: seen, legend: false, attrs: { 'data-step': last.t } })),
      figure(
        `New row of P${head}`,
        matrix(last.weights, {
          stage: 'generate-weights',
          title: `Weights of token ${n}`,
          kind: 'weights',
          rowLabels: [state.tokens[last.t]],
          colLabels: seen,
          legend: false,
          attrs: { 'data-step': last.t },
        }),
      ),
      figure(
        state.wo && state.heads > 1 ? 'Output row (through Wᴼ)' : 'Output row',
        matrix(last.output, {
          stage: 'generate-output',
          title: `Output of token ${n}`,
          rowLabels: [state.tokens[last.t]],
          legend: false,
          attrs: { 'data-step': last.t },
        }),
      ),
    ),
    h(
      'ul',
      { class: 'generate-checks' },
      checkLine('weights', `Row ${n} of P`, last.diffs.weights, 1),
      checkLine('output', `Output row ${n}`, last.diffs.output, largest(last.full)),
      h(
        'li',
        { class: 'generate-check is-ok', dataset: { check: 'rows', diff: String(last.diffs.rows) } },
        h('span', { class: 'generate-check-mark', 'aria-hidden': 'true' }, '✓'),
        `The cached forward’s row equals attention over the K and V rows shown to ${digits(last.diffs.rows)}.`,
      ),
    ),
    causal,
  ];
}

function mount(container, app) {
  const { announce } = app;
  const playButton = h(
    'button',
    { type: 'button', class: 'button-primary generate-play', 'aria-pressed': 'false', onclick: () => (stepper.playing ? stepper.pause() : stepper.play()) },
    'Play',
  );
  const stepButton = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Step: feed the next token', onclick: () => stepper.step() }, 'Step');
  const resetButton = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Reset: empty the cache', onclick: () => stepper.reset() }, 'Reset');
  const status = h('p', { class: 'panel-status generate-status' });
  const note = h('p', { class: 'panel-status generate-note', hidden: true });
  const body = h('div', { class: 'generate-body' });
  const lede = h('p', { class: 'band-lede' });
  container.append(
    h(
      'section',
      { class: 'panel-card generate-card', 'aria-labelledby': 'generate-title', dataset: { panel: 'generate' } },
      h('header', { class: 'band-head' }, h('h2', { class: 'band-title', id: 'generate-title' }, 'Generate'), lede),
      h('div', { class: 'generate-buttons' }, playButton, stepButton, resetButton),
      note,
      status,
      body,
    ),
  );

  let last = null;
  let announced = 0;
  const stepper = createStepper(app.attn, () => render(true), { reducedMotion });

  function render(fromStepper = false) {
    if (!last) return;
    const { state } = last;
    const blocked = Boolean(stepper.blocker);
    note.hidden = !blocked;
    note.textContent = blocked ? `Generate is off for this example. ${stepper.blocker}` : '';
    for (const b of [playButton, stepButton, resetButton]) b.disabled = blocked;
    const n = stepper.steps.length;
    stepButton.disabled = blocked || n >= stepper.T;
    resetButton.disabled = blocked || n === 0;
    playButton.textContent = stepper.playing ? 'Pause' : 'Play';
    playButton.setAttribute('aria-pressed', String(stepper.playing));
    playButton.title = reducedMotion() ? 'Reduced motion: Play goes straight to the last step' : 'Feed a token every 0.8 s';
    status.textContent = blocked
      ? ''
      : n === 0
        ? `Step 0 of ${stepper.T}: the cache is empty.`
        : `Step ${n} of ${stepper.T}: “${stepper.steps.at(-1).token}” joined the cache (${stepper.steps.at(-1).cacheLength} rows).`;
    body.replaceChildren(...(blocked ? [] : stepView(state, stepper)).filter(Boolean));
    if (fromStepper && n !== announced) {
      const s = stepper.steps.at(-1);
      announce(
        n === 0
          ? 'The cache is empty.'
          : `Step ${n} of ${stepper.T}: ${s.token}. Row ${n} of the weights ${agrees(s.diffs.weights, 1) ? 'equals' : 'differs from'} the full forward’s.`,
      );
    }
    announced = n;
  }

  return {
    update(state, result) {
      lede.textContent = `Feed the ${state.tokens.length} tokens one at a time through a ${state.heads > 1 && state.wo ? 'multi-head' : 'single-head'} layer’s KV cache, as a decoder generates: each new token attends to the keys and values cached so far.`;
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
