// The training lab (?view=lab): choose a task, a model, the batch and the learning rate (or a
// preset), press Train and watch on a fixed probe sequence how the heads come to be: the loss and
// accuracy curves, the model view with each head's previous-token and induction scores, a note
// when a head crosses a threshold, and snapshots to scrub back. Training runs on a worker of the
// pool (web/model/train/driver.js), so the page only draws. <html data-lab> hides the explorer's
// example while the lab is shown (lab.css).
import { h } from '../../../figures/dom.js';
import { HEAD_THRESHOLDS } from '../../../model/train/head-scores.js';
import { TASKS, createTrainer } from '../../../model/train/driver.js';
import { DEFAULT_TEXT, LAB_PRESETS } from './presets.js';
import { labTools } from './tools.js';
import { pageLang } from '../../page-lang.js';
import { errorText } from '../../../i18n/figure-text.js';

// While training, the page redraws the status and the curves at most every REDRAW_MS, and the model
// view and the head scores (a canvas per head, rebuilt: the heavier part) at most every
// MODEL_VIEW_MS, in a frame of their own, so that no frame holds both.
const REDRAW_MS = 250;
const MODEL_VIEW_MS = 1000;

/** Resolves in a task after the next frame is drawn. */
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

export const isLab = (location) => new URLSearchParams(location.search).get('view') === 'lab';

/** A numeric field: label, input (min, max, step). */
function numberField(t, key, value, { min, max, step = 1 }) {
  const input = h('input', { type: 'number', min, max, step, value: String(value), dataset: { field: key } });
  return { node: h('label', { class: 'lab-field' }, h('span', {}, t(`lab.field.${key}`)), input), input };
}

function selectField(t, key, options, value) {
  const input = h(
    'select',
    { dataset: { field: key } },
    options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );
  return { node: h('label', { class: 'lab-field' }, h('span', {}, t(`lab.field.${key}`)), input), input };
}

function mountLab(container, app) {
  const { t, announce } = app;
  container.dataset.view = 'lab';
  if (!isLab(window.location)) {
    container.hidden = true;
    return { update() {} };
  }
  document.documentElement.dataset.lab = '';
  const taskNames = {
    induction: t('lab.task.induction'),
    copy: t('lab.task.copy'),
    reverse: t('lab.task.reverse'),
    sort: t('lab.task.sort'),
    text: t('lab.task.text'),
  };
  const presetNames = {
    induction: t('lab.preset.induction'),
    'induction-small': t('lab.preset.induction-small'),
    copy: t('lab.preset.copy'),
    sort: t('lab.preset.sort'),
  };

  const fields = {
    preset: selectField(
      t,
      'preset',
      LAB_PRESETS.map((p) => [p.id, presetNames[p.id]]),
      'induction',
    ),
    task: selectField(
      t,
      'task',
      TASKS.map((id) => [id, taskNames[id]]),
      'induction',
    ),
    layers: numberField(t, 'layers', 2, { min: 1, max: 6 }),
    heads: numberField(t, 'heads', 4, { min: 1, max: 8 }),
    kvHeads: numberField(t, 'kvHeads', 4, { min: 1, max: 8 }),
    dModel: numberField(t, 'dModel', 32, { min: 4, max: 128, step: 4 }),
    positions: selectField(
      t,
      'positions',
      ['learned', 'rope', 'alibi', 'none'].map((p) => [p, t(`lab.position.${p}`)]),
      'learned',
    ),
    mlp: numberField(t, 'mlp', 0, { min: 0, max: 512, step: 8 }),
    batch: numberField(t, 'batch', 32, { min: 1, max: 256 }),
    learningRate: numberField(t, 'learningRate', 0.003, { min: 0.0001, max: 0.1, step: 0.0001 }),
  };
  const text = h('textarea', { rows: 3, class: 'lab-text', 'aria-label': t('lab.field.text'), hidden: true }, DEFAULT_TEXT);

  function applyPreset(id) {
    const { setup } = LAB_PRESETS.find((p) => p.id === id);
    fields.task.input.value = setup.task;
    for (const key of ['layers', 'heads', 'kvHeads', 'dModel', 'positions', 'mlp']) fields[key].input.value = String(setup.model[key]);
    fields.batch.input.value = String(setup.batch);
    fields.learningRate.input.value = String(setup.learningRate);
    text.hidden = setup.task !== 'text';
  }
  fields.preset.input.addEventListener('change', () => {
    applyPreset(fields.preset.input.value);
    rebuild();
  });
  fields.task.input.addEventListener('change', () => {
    text.hidden = fields.task.input.value !== 'text';
  });
  for (const [key, field] of Object.entries(fields)) if (key !== 'preset') field.input.addEventListener('change', () => rebuild());
  text.addEventListener('change', () => rebuild());

  const readSetup = () => {
    const n = (key) => Number(fields[key].input.value);
    return {
      task: fields.task.input.value,
      text: text.value,
      model: {
        layers: n('layers'),
        heads: n('heads'),
        kvHeads: n('kvHeads'),
        dModel: n('dModel'),
        positions: fields.positions.input.value,
        mlp: n('mlp'),
        seed: 0,
      },
      batch: n('batch'),
      learningRate: n('learningRate'),
    };
  };

  const button = (action, label, onclick) =>
    h('button', { type: 'button', class: action === 'train' ? 'button-primary' : 'icon-button', dataset: { action: `lab-${action}` }, onclick }, label);
  const buttons = {
    train: button('train', t('lab.train'), () => train()),
    pause: button('pause', t('lab.pause'), () => pause()),
    step: button('step', t('lab.step-once'), () => stepOnce()),
    reset: button('reset', t('lab.reset'), () => rebuild()),
  };
  const status = h('p', { class: 'lab-status', dataset: { role: 'status' } }, t('lab.loading'));
  const error = h('p', { class: 'error-box', role: 'alert', hidden: true });
  const charts = h('div', { class: 'lab-charts' });
  const notes = h('ol', { class: 'lab-notes', dataset: { role: 'notes' }, 'aria-label': t('lab.notes') });
  const timeline = h('input', { type: 'range', min: 0, max: 0, value: 0, disabled: true, dataset: { role: 'timeline' }, 'aria-label': t('lab.timeline') });
  const timelineOut = h('output', { class: 'lab-timeline-value' });
  const scores = h('div', { class: 'lab-scores', dataset: { role: 'scores' } });
  const modelView = h('div', { class: 'lab-model-view', dataset: { role: 'model-view' } });
  const headView = h('section', { class: 'lab-head-view', dataset: { role: 'head-pipeline' }, 'aria-live': 'polite', hidden: true });
  // A loaded model file made with another configuration: the form takes it, and the lab rebuilds.
  const adoptConfig = async (config) => {
    for (const key of ['layers', 'heads', 'kvHeads', 'dModel', 'positions', 'mlp']) fields[key].input.value = String(config[key]);
    await rebuild();
    return trainer;
  };
  const tools = labTools(app, adoptConfig);

  container.append(
    h(
      'div',
      { class: 'lab-head' },
      h('h1', { class: 'lab-title', id: 'lab-title', tabindex: '-1' }, t('lab.title')),
      h('a', { href: `?lang=${app.lang}`, class: 'icon-button', dataset: { action: 'lab-close' } }, t('lab.back')),
    ),
    h('p', { class: 'lab-lede' }, t('lab.lede')),
    h('form', { class: 'lab-setup', 'aria-label': t('lab.setup'), onsubmit: (e) => e.preventDefault() }, ...Object.values(fields).map((f) => f.node), text),
    h('div', { class: 'lab-buttons', role: 'group', 'aria-label': t('lab.controls') }, ...Object.values(buttons)),
    status,
    error,
    charts,
    h(
      'section',
      { class: 'lab-probe', 'aria-labelledby': 'lab-probe-title' },
      h('h2', { id: 'lab-probe-title' }, t('lab.probe-title')),
      h('p', { class: 'lab-hint' }, t('lab.probe-hint', { previous: HEAD_THRESHOLDS.previousToken, induction: HEAD_THRESHOLDS.induction })),
      h('div', { class: 'lab-timeline' }, h('label', {}, t('lab.timeline'), ' ', timeline), timelineOut),
      scores,
      modelView,
      notes,
      headView,
    ),
    tools.node,
  );

  let pool = null;
  let trainer = null;
  let latest = null;
  let shown = null; // the probe the model view shows
  let drawTimer = 0;
  let lastDraw = 0;
  let lastModelView = 0;
  let scrubbing = false; // the timeline shows a snapshot, not the latest probe

  async function ensurePool() {
    if (!pool) {
      const { loadAttention, simdSupported } = await import('../../../src/index.js');
      pool = await loadAttention({ simd: simdSupported(), threads: 1 });
    }
    return pool;
  }

  async function rebuild() {
    const old = trainer;
    trainer = null;
    latest = null;
    scrubbing = false;
    notes.replaceChildren();
    error.hidden = true;
    setRunning(false);
    await old?.dispose();
    try {
      const next = await createTrainer(await ensurePool(), readSetup());
      trainer = next;
      next.listen(onUpdate);
      tools.setTrainer(next);
      await next.measure();
    } catch (e) {
      error.hidden = false;
      error.textContent = t('lab.error', { message: errorText(pageLang(), e) });
      status.textContent = '';
    }
  }

  function setRunning(on) {
    buttons.train.disabled = on;
    buttons.pause.disabled = !on;
    container.dataset.running = String(on);
  }

  function onUpdate(state) {
    if (!trainer || state.config !== trainer.config) return;
    latest = state;
    setRunning(state.running);
    if (state.error) {
      error.hidden = false;
      error.textContent = t('lab.error', { message: errorText(pageLang(), state.error) });
    }
    const wait = REDRAW_MS - (performance.now() - lastDraw);
    if (!state.running || wait <= 0) draw();
    else if (!drawTimer)
      drawTimer = setTimeout(() => {
        drawTimer = 0;
        draw();
      }, wait);
  }

  async function train() {
    if (!trainer) return;
    scrubbing = false;
    setRunning(true);
    trainer.start();
  }
  async function pause() {
    await trainer?.pause();
  }
  async function stepOnce() {
    if (!trainer) return;
    scrubbing = false;
    await trainer.step();
  }

  const percent = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '–');

  async function draw() {
    lastDraw = performance.now();
    const state = latest;
    if (!state) return;
    const { lineChart } = await import('../../../figures/line-chart.js');
    const loss = state.losses.at(-1);
    const acc = state.probe?.accuracy;
    status.textContent = t('lab.status', { step: state.step, loss: Number.isFinite(loss) ? loss.toFixed(4) : '–', accuracy: percent(acc) });
    status.dataset.step = String(state.step);
    status.dataset.loss = String(loss ?? '');
    status.dataset.accuracy = String(acc ?? '');
    charts.replaceChildren(
      lineChart(state.losses, {
        lang: pageLang(),
        title: t('lab.loss'),
        xlabel: t('lab.step'),
        width: 320,
        height: 160,
        empty: t('lab.no-steps'),
        attrs: { 'data-role': 'loss-chart' },
      }),
      lineChart(
        state.accuracies.map(([, a]) => a),
        {
          lang: pageLang(),
          title: t('lab.accuracy'),
          xlabel: t('lab.probes'),
          width: 320,
          height: 160,
          empty: t('lab.no-steps'),
          attrs: { 'data-role': 'accuracy-chart' },
        },
      ),
    );
    for (const c of state.crossings.slice(notes.children.length)) {
      const message = t(c.kind === 'induction' ? 'lab.became-induction' : 'lab.became-previous', { layer: c.layer, head: c.head, step: c.step });
      notes.append(h('li', { dataset: { kind: c.kind, layer: String(c.layer), head: String(c.head), step: String(c.step) } }, message));
      announce(message);
    }
    timeline.max = String(Math.max(0, state.snapshots.length - 1));
    timeline.disabled = state.snapshots.length < 2;
    if (scrubbing || (state.running && performance.now() - lastModelView < MODEL_VIEW_MS)) return;
    if (state.running) await nextFrame();
    lastModelView = performance.now();
    if (scrubbing) return; // the timeline was moved meanwhile
    timeline.value = timeline.max;
    await showProbe(latest?.probe);
  }

  async function showProbe(probe) {
    if (!probe || probe === shown) return;
    shown = probe;
    timelineOut.textContent = t('lab.at-step', { step: probe.step });
    const { heads } = await import('../../../figures/heads.js');
    const labels = trainer?.tokenLabels(probe.tokens) ?? probe.tokens.map(String);
    modelView.replaceChildren(
      heads(probe.attentions, { lang: pageLang(), rowLabels: labels, title: t('lab.model-view', { step: probe.step }), aggregates: false, thumbSize: 72 }),
    );
    scores.replaceChildren(scoreTable(probe.scores));
    tools.showProbe(probe);
  }

  function scoreTable({ previousToken, induction }) {
    const H = previousToken[0].length;
    const words = { previousToken: [t('lab.previous-short'), t('lab.previous-title')], induction: [t('lab.induction-short'), t('lab.induction-title')] };
    const badge = (kind, x) =>
      h(
        'span',
        { class: `lab-badge${x > HEAD_THRESHOLDS[kind] ? ' is-on' : ''}`, dataset: { kind, score: String(x) }, title: words[kind][1] },
        `${words[kind][0]} ${Number.isFinite(x) ? x.toFixed(2) : '–'}`,
      );
    return h(
      'table',
      { class: 'lab-score-table' },
      h('caption', {}, t('lab.scores-caption')),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('lab.scores-corner'))),
          ...Array.from({ length: H }, (_, head) => h('th', { scope: 'col' }, t('lab.head', { head }))),
        ),
      ),
      h(
        'tbody',
        {},
        previousToken.map((row, layer) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, t('lab.layer', { layer })),
            ...row.map((p, head) =>
              h('td', { dataset: { layer: String(layer), head: String(head) } }, badge('previousToken', p), ' ', badge('induction', induction[layer][head])),
            ),
          ),
        ),
      ),
    );
  }

  // Click (or Enter on) a head's map: its pipeline on the probe sequence with the trained weights.
  const openHead = (event) => {
    const canvas = event.target.closest?.('canvas[data-layer][data-head]');
    if (!canvas || !/^\d+$/.test(canvas.dataset.layer) || !/^\d+$/.test(canvas.dataset.head)) return;
    if (event.type === 'keydown' && event.key !== 'Enter' && event.key !== ' ') return;
    showHead(Number(canvas.dataset.layer), Number(canvas.dataset.head));
  };
  modelView.addEventListener('click', openHead);
  modelView.addEventListener('keydown', openHead);

  // The head of the probe the model view shows: a snapshot's weights while the timeline is scrubbed back.
  async function showHead(layer, head) {
    if (!trainer) return;
    await trainer.pause();
    const snapshot = scrubbing ? Number(timeline.value) : undefined;
    const step = scrubbing ? latest.snapshots[snapshot].step : (latest?.step ?? 0);
    headView.hidden = false;
    try {
      const [{ spec, x, shown }, { pipeline, pipelineState, heatmap }, { compute }, { attachDerivations }] = await Promise.all([
        trainer.headExample(layer, head, { snapshot }),
        import('../../../figures/index.js'),
        import('../../../model/compute/index.js'),
        import('./derivation.js'),
      ]);
      const figure = await pipeline({ attn: app.attn, ...spec, captions: true });
      const derivation = h('div', { class: 'lab-derivation explain-card', dataset: { role: 'derivation' }, 'aria-live': 'polite' });
      const state = await pipelineState(spec);
      attachDerivations(figure, derivation, { state, result: compute(app.attn, state), lang: app.lang, t });
      const xFigure = heatmap(
        { data: Float32Array.from(x.flat()), shape: [x.length, x[0].length] },
        {
          lang: pageLang(),
          title: t('lab.x-title'),
          stage: 'lab-x',
          // LayerNorm's outputs are signed (mean 0 per token): a diverging scale, tokens by features
          colorScale: 'signed',
          ylabel: t('lab.x-rows'),
          xlabel: t('lab.x-columns'),
          rowLabels: spec.data.tokens,
          attrs: { 'data-role': 'lab-x' },
        },
      );
      Object.assign(headView.dataset, { layer: String(layer), head: String(head), step: String(step), snapshot: String(snapshot ?? '') });
      headView.replaceChildren(
        h('h3', { id: 'lab-head-title', tabindex: '-1' }, t('lab.head-title', { layer, head, step })),
        h('p', { class: 'lab-hint' }, t('lab.head-hint', { shown })),
        h('div', { class: 'lab-x' }, xFigure),
        figure,
        derivation,
      );
      headView.querySelector('#lab-head-title').focus();
    } catch (e) {
      headView.replaceChildren(h('p', { class: 'error-box' }, t('lab.error', { message: errorText(pageLang(), e) })));
    }
  }

  timeline.addEventListener('input', () => {
    const snap = latest?.snapshots[Number(timeline.value)];
    if (!snap) return;
    scrubbing = Number(timeline.value) < latest.snapshots.length - 1;
    showProbe({ step: snap.step, attentions: snap.attentions, scores: snap.scores, tokens: latest.probe.tokens, accuracy: snap.accuracy });
  });

  // For the console and the end-to-end tests: the trainer shown now.
  app.lab = { trainer: () => trainer };
  applyPreset('induction');
  setRunning(false);
  rebuild();
  return { update() {} };
}

/** The masthead's way in and out of the lab. */
function mountLabLink(container, { t, lang }) {
  const inLab = isLab(window.location);
  container.append(
    h(
      'a',
      { class: 'icon-button', href: inLab ? `?lang=${lang}` : `?view=lab&lang=${lang}`, dataset: { action: inLab ? 'explorer' : 'lab' } },
      t(inLab ? 'lab.explorer-link' : 'lab.link'),
    ),
  );
  return { update() {} };
}

export const labPanels = [
  { id: 'lab', slot: 'main', order: 1, mount: mountLab },
  { id: 'lab-link', slot: 'masthead', order: 25, mount: mountLabLink },
];
