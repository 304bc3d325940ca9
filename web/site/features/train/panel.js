// The training panel: a loss (half-sum or mean squared error against the target Y), a learning
// rate and a speed, and Train / Step / Reset. Each step is SGD on the trained matrices (as
// seed 004's Java code: W <- W - lr dL/dW); the pipeline above, the heatmap and the loss curve
// here follow every step.
import { heatmap, lineChart, matrix } from '../../../figures/index.js';
import { fromNested } from '../../../model/compute/tensors.js';
import { h } from '../../../figures/dom.js';
import { segmented, slider } from '../../panels/widgets.js';
import { LIMITS } from '../../../model/state/model.js';
import { trainedLeaves } from './sgd.js';
import { maskedFlags, tokenLabels } from '../../../model/stages/common.js';
import { createTrainer } from './trainer.js';

// Learning rate on a log slider: position p in [-3, 0] is 10^p (0.001 ... 1).
const RATE = {
  min: -3, max: 0, step: 0.01,
  toValue: (p) => Number((10 ** p).toPrecision(2)),
  fromValue: (r) => Math.log10(r),
  format: (r) => `η = ${r}`,
};
const SPEED = { min: LIMITS.stepsPerSecond[0], max: LIMITS.stepsPerSecond[1], step: 1, format: (n) => `${n} steps/s` };
const LEAF_TITLES = { wq: 'Wq', wk: 'Wk', wv: 'Wv', wo: 'Wo', q: 'Q', k: 'K', v: 'V' };

function trainedText(state) {
  const heads = state.heads > 1 ? ` of all ${state.heads} heads` : '';
  return state.source === 'self'
    ? `SGD on Wq, Wk and Wv${heads}${state.wo ? ' and Wo' : ''}, as seed 004’s Java code does: W ← W − η ∂L/∂W.${state.heads > 1 ? ` The matrices below are head ${state.head + 1}’s.` : ''}`
    : 'This example has no weights: SGD moves Q, K and V themselves (Q ← Q − η ∂L/∂Q, …).';
}

function figures(state, result, trainer) {
  const run = result.heads[state.head].runs[0];
  const { queries, keys } = tokenLabels(state);
  const [Tq, Tk] = run.weights.shape.slice(-2);
  const items = [
    lineChart(trainer.history, { stage: 'loss-curve', title: 'Loss L', xlabel: 'step', width: 300, height: 160, empty: 'the loss of each step appears here' }),
    heatmap(run.weights, {
      stage: 'train-weights', title: 'Attention P', rowLabels: queries, colLabels: keys,
      masked: maskedFlags(result), numbers: Math.max(Tq, Tk) <= 5, cellSize: Math.max(Tq, Tk) <= 5 ? 40 : undefined,
    }),
    h('div', { class: 'train-leaves' }, trainedLeaves(state).map(([leaf]) => {
      const value = state.source === 'self' && leaf !== 'wo' ? state[leaf][state.head] : state[leaf];
      return h('figure', { class: 'figure' }, h('figcaption', { class: 'figure-label' }, LEAF_TITLES[leaf]),
        matrix(fromNested(value), { stage: `train-${leaf}`, title: LEAF_TITLES[leaf], legend: false }));
    })),
  ];
  return items.map((node) => h('div', { class: 'train-figure' }, node));
}

function mount(container, app) {
  const { store, announce } = app;
  const trainButton = h('button', { type: 'button', class: 'button-primary train-toggle', 'aria-pressed': 'false', onclick: () => (trainer.running ? trainer.stop() : trainer.start()) }, 'Train');
  const stepButton = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'One SGD step', onclick: () => trainer.step() }, 'Step');
  const resetButton = h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Reset the trained weights', onclick: () => trainer.reset() }, 'Reset');
  const loss = segmented('loss', [['half-sum', '½ Σ (O − Y)²', 'L = 1/2 sum of the squared errors; dL/dO = O − Y'], ['mean', 'mean (O − Y)²', 'L = mean of the squared errors; dL/dO = 2 (O − Y) / n']],
    (value) => store.update((s) => ({ ...s, backward: { ...s.backward, loss: value } })), { label: 'Loss' });
  const rate = slider('Learning rate', RATE, (value) => store.update((s) => ({ ...s, backward: { ...s.backward, learningRate: value } })));
  const speed = slider('Speed', SPEED, (value) => store.update((s) => ({ ...s, backward: { ...s.backward, stepsPerSecond: value } })));
  const lede = h('p', { class: 'band-lede' });
  const status = h('p', { class: 'panel-status train-status', role: 'status' });
  const gallery = h('div', { class: 'train-figures' });
  container.append(h('section', { class: 'panel-card train-card', 'aria-labelledby': 'train-title' },
    h('header', { class: 'band-head' }, h('h2', { class: 'band-title', id: 'train-title' }, 'Train'), lede),
    h('div', { class: 'train-controls' },
      h('div', { class: 'train-buttons' }, trainButton, stepButton, resetButton),
      h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'Loss'), loss.node),
      rate.node, speed.node),
    status, gallery));

  let last = null;
  const trainer = createTrainer(store, (t) => {
    trainButton.textContent = t.running ? 'Stop' : 'Train';
    trainButton.setAttribute('aria-pressed', String(t.running));
    if (t.stopReason) announce(t.stopReason);
    if (last) render(last.state, last.result);
  });

  function render(state, result) {
    const bw = result?.backward;
    container.hidden = !bw || Boolean(bw.error);
    if (container.hidden) return;
    const { history } = trainer;
    const steps = Math.max(0, history.length - 1);
    status.textContent = trainer.stopReason || (steps === 0
      ? `L = ${bw.loss.toPrecision(5)}. Press Train to descend.`
      : `Step ${steps}: L = ${bw.loss.toPrecision(5)} (from ${history[0].toPrecision(5)})${trainer.running ? '' : ', paused'}.`);
    gallery.replaceChildren(...figures(state, result, trainer));
  }

  return {
    update(state, result) {
      lede.textContent = trainedText(state);
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
