// The training panel: a loss (half-sum or mean squared error against the target Y), a learning
// rate and a speed, and Train / Step / Reset. Each step is SGD on the trained matrices (as
// seed-004's Java code: W <- W - lr dL/dW); the pipeline above, the heatmap and the loss curve
// here follow every step.
import { heatmap, lineChart, matrix } from '../../../figures/index.js';
import { fromNested } from '../../../model/compute/tensors.js';
import { h } from '../../../figures/dom.js';
import { segmented, slider } from '../../panels/widgets.js';
import { LIMITS } from '../../../model/state/model.js';
import { trainedLeaves } from './sgd.js';
import { maskedFlags, tokenLabels } from '../../../model/stages/common.js';
import { createTrainer } from './trainer.js';
import { pageLang } from '../../page-lang.js';

// Learning rate on a log slider: position p in [-3, 0] is 10^p (0.001 ... 1).
const RATE = {
  min: -3,
  max: 0,
  step: 0.01,
  toValue: (p) => Number((10 ** p).toPrecision(2)),
  fromValue: (r) => Math.log10(r),
  format: (r) => `η = ${r}`,
};
const SPEED = { min: LIMITS.stepsPerSecond[0], max: LIMITS.stepsPerSecond[1], step: 1 };
const LEAF_TITLES = { wq: 'Wq', wk: 'Wk', wv: 'Wv', wo: 'Wo', q: 'Q', k: 'K', v: 'V' };

function trainedText(state, t) {
  if (state.source !== 'self') return t('site.train-qkv');
  const weights = t(`site.train-weights${state.heads > 1 ? '-heads' : ''}${state.wo ? '-wo' : ''}`, { heads: state.heads });
  return t('site.train-self', { weights }) + (state.heads > 1 ? t('site.train-head-shown', { head: state.head }) : '');
}

function figures(state, result, trainer, t) {
  const run = result.heads[state.head].runs[0];
  const { queries, keys } = tokenLabels(state);
  const [Tq, Tk] = run.weights.shape.slice(-2);
  const items = [
    lineChart(trainer.history, {
      lang: pageLang(),
      stage: 'loss-curve',
      title: t('site.train-curve'),
      xlabel: t('site.train-curve-axis'),
      width: 300,
      height: 160,
      empty: t('site.train-curve-empty'),
    }),
    heatmap(run.weights, {
      lang: pageLang(),
      stage: 'train-weights',
      title: t('site.train-heatmap'),
      rowLabels: queries,
      colLabels: keys,
      masked: maskedFlags(result),
      numbers: Math.max(Tq, Tk) <= 5,
      cellSize: Math.max(Tq, Tk) <= 5 ? 40 : undefined,
    }),
    h(
      'div',
      { class: 'train-leaves' },
      trainedLeaves(state).map(([leaf]) => {
        const value = state.source === 'self' && leaf !== 'wo' ? state[leaf][state.head] : state[leaf];
        return h(
          'figure',
          { class: 'figure' },
          h('figcaption', { class: 'figure-label' }, LEAF_TITLES[leaf]),
          matrix(fromNested(value), { lang: pageLang(), stage: `train-${leaf}`, title: LEAF_TITLES[leaf], legend: false }),
        );
      }),
    ),
  ];
  // Each in a box that scrolls sideways when the page is narrower than the figure (at 320 px the
  // loss curve is): focusable and named, so that the keyboard can scroll it too.
  const names = [
    t('site.train-curve'),
    t('site.train-heatmap'),
    trainedLeaves(state)
      .map(([leaf]) => LEAF_TITLES[leaf])
      .join(', '),
  ];
  return items.map((node, k) => h('div', { class: 'train-figure', tabindex: '0', role: 'group', 'aria-label': names[k] }, node));
}

function mount(container, app) {
  const { store, announce, t } = app;
  const trainButton = h(
    'button',
    { type: 'button', class: 'button-primary train-toggle', 'aria-pressed': 'false', onclick: () => (trainer.running ? trainer.stop() : trainer.start()) },
    t('site.train'),
  );
  const stepButton = h(
    'button',
    { type: 'button', class: 'icon-button', 'aria-label': t('site.train-step-label'), onclick: () => trainer.step() },
    t('site.train-step'),
  );
  const resetButton = h(
    'button',
    { type: 'button', class: 'icon-button', 'aria-label': t('site.train-reset-label'), onclick: () => trainer.reset() },
    t('site.train-reset'),
  );
  const loss = segmented(
    'loss',
    [
      ['half-sum', '½ Σ (O − Y)²', t('site.train-half-sum-title')],
      ['mean', t('site.train-mean'), t('site.train-mean-title')],
    ],
    (value) => store.update((s) => ({ ...s, backward: { ...s.backward, loss: value } })),
    { label: t('site.train-loss') },
  );
  const rate = slider(t('site.train-rate'), RATE, (value) => store.update((s) => ({ ...s, backward: { ...s.backward, learningRate: value } })));
  const speed = slider(t('site.train-speed'), { ...SPEED, format: (n) => t('site.train-steps-per-second', { n }) }, (value) =>
    store.update((s) => ({ ...s, backward: { ...s.backward, stepsPerSecond: value } })),
  );
  const lede = h('p', { class: 'band-lede' });
  const status = h('p', { class: 'panel-status train-status', role: 'status' });
  const gallery = h('div', { class: 'train-figures' });
  container.append(
    h(
      'section',
      { class: 'panel-card train-card', 'aria-labelledby': 'train-title' },
      h('header', { class: 'band-head' }, h('h2', { class: 'band-title', id: 'train-title' }, t('site.train')), lede),
      h(
        'div',
        { class: 'train-controls' },
        h('div', { class: 'train-buttons' }, trainButton, stepButton, resetButton),
        h('div', { class: 'field' }, h('span', { class: 'field-label' }, t('site.train-loss')), loss.node),
        rate.node,
        speed.node,
      ),
      status,
      gallery,
    ),
  );

  let last = null;
  const trainer = createTrainer(store, { t }, (tr) => {
    trainButton.textContent = t(tr.running ? 'site.train-stop' : 'site.train');
    trainButton.setAttribute('aria-pressed', String(tr.running));
    if (tr.stopReason) announce(tr.stopReason);
    if (last) render(last.state, last.result);
  });

  function render(state, result) {
    const bw = result?.backward;
    container.hidden = !bw || Boolean(bw.error);
    if (container.hidden) return;
    const { history } = trainer;
    const steps = Math.max(0, history.length - 1);
    status.textContent =
      trainer.stopReason ||
      (steps === 0
        ? t('site.train-start', { loss: bw.loss.toPrecision(5) })
        : t(trainer.running ? 'site.train-progress' : 'site.train-paused', { steps, loss: bw.loss.toPrecision(5), first: history[0].toPrecision(5) }));
    gallery.replaceChildren(...figures(state, result, trainer, t));
  }

  return {
    update(state, result) {
      lede.textContent = trainedText(state, t);
      loss.set(state.backward.loss);
      rate.set(state.backward.learningRate);
      speed.set(state.backward.stepsPerSecond);
      last = { state, result };
      trainer.observe(state, result);
      render(state, result);
    },
  };
}

export const trainPanel = { id: 'train', slot: 'main', order: 200, mount };
