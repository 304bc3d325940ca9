// What <attn-training> (attn-training.js) draws, loaded with its first drawing: the state line,
// the loss curve, each head's scores with the heads that formed, the model view of the probe
// sequence, and under reduced motion the stepper through a stored run's snapshots.
//   drawTraining(element, state, labels, say, maxSteps)   the driver's state (or null before training)
//   drawStoredRun(element, run, index, say)       snapshot `index` of training-run.json
// say(key, params): the element's words in its language. It brings the attributes' checks along
// (training-setup.js), so a page whose figure never draws loads neither.
import { h } from '../figures/dom.js';
import { heads } from '../figures/heads.js';
import { lineChart } from '../figures/line-chart.js';
import { HEAD_THRESHOLDS } from '../model/train/head-scores.js';

export { readTrainingAttributes, trainingSetup } from './training-setup.js';

const STYLE = `.training-controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin-bottom:8px}
.training-state{margin:0;font-size:12.5px;color:var(--attn-ink-muted);font-variant-numeric:tabular-nums}
.training-stepper{flex-basis:100%;display:flex;flex-wrap:wrap;gap:6px;align-items:center;font-size:12.5px}
.training-stepper input{width:min(220px,40vw);vertical-align:middle}
.training-note{margin:0 0 8px;font-size:12.5px;color:var(--attn-ink-muted);max-width:70ch}
.training-panels{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
.training-scores{border-collapse:collapse;font-size:12px;font-variant-numeric:tabular-nums}
.training-scores caption{text-align:start;font-size:12.5px;margin-bottom:4px}
.training-scores th,.training-scores td{padding:2px 8px;border-bottom:1px solid var(--attn-grid);text-align:end}
.training-scores th[scope=row]{text-align:start;font-weight:normal;white-space:nowrap}
.training-scores .badge{display:block;font-size:11px}
.training-scores .formed{font-weight:600;color:var(--attn-weight)}
.training-crossings{margin:6px 0;padding-inline-start:18px;font-size:12.5px}
.training-hint{margin:4px 0 0;font-size:11.5px;color:var(--attn-ink-muted);max-width:44ch}
.training-figure svg{max-width:100%;height:auto}`;

const TASK_WORDS = { induction: 'training.task.induction', copy: 'training.task.copy', reverse: 'training.task.reverse', sort: 'training.task.sort' };

const fixed = (x, digits) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

// The stepper of each element, built once so the slider keeps its focus while it is used.
const steppers = new WeakMap();

/** The driver's state -> the figure; null: nothing trained yet. */
export function drawTraining(element, state, labels, say, maxSteps) {
  styled(element);
  steppers.get(element)?.root.remove();
  if (!state?.probe) {
    element.stateLine.textContent = say('training.waiting');
    element.figure.replaceChildren(lossChart([], say, element.language()));
    return;
  }
  const finished = !state.running && state.step >= maxSteps;
  const word = state.running ? 'training.running' : finished ? 'training.finished' : 'training.paused';
  element.stateLine.textContent = say('training.status', {
    state: say(word),
    step: state.step,
    loss: fixed(state.losses.at(-1), 3),
    accuracy: fixed(state.probe.accuracy, 2),
  });
  element.figure.replaceChildren(
    panels(say, {
      lang: element.language(),
      step: state.step,
      losses: state.losses,
      scores: state.probe.scores,
      attentions: state.probe.attentions,
      crossings: state.crossings,
      labels,
    }),
  );
}

/** Snapshot `index` of a stored run, with its stepper and a note saying what the run is. */
export function drawStoredRun(element, run, index, say) {
  styled(element);
  const snapshot = run.snapshots[index];
  const stepper = stepperOf(element, run, say);
  stepper.update(index);
  element.stateLine.textContent = say('training.status', {
    state: say('training.snapshot'),
    step: snapshot.step,
    loss: fixed(snapshot.loss, 3),
    accuracy: fixed(snapshot.accuracy, 2),
  });
  const { model, task } = run.setup;
  const note = h(
    'p',
    { class: 'training-note', dataset: { role: 'stored-note' } },
    say('training.stored', { layers: model.layers, heads: model.heads, d: model.dModel, task: say(TASK_WORDS[task]) }),
  );
  element.figure.replaceChildren(
    note,
    panels(say, {
      lang: element.language(),
      step: snapshot.step,
      losses: run.losses.slice(0, snapshot.step),
      scores: snapshot.scores,
      attentions: snapshot.attentions,
      crossings: run.crossings,
      labels: run.tokens,
    }),
  );
}

/** The element's styles, once, beside the adopted figure styles. */
function styled(element) {
  if (!element.shadowRoot.querySelector('style[data-role="training"]')) element.shadowRoot.prepend(h('style', { dataset: { role: 'training' } }, STYLE));
}

/** The loss curve, its words in the element's language `lang`. */
function lossChart(losses, say, lang) {
  return lineChart(losses, {
    lang,
    title: say('training.loss'),
    xlabel: say('training.step'),
    empty: say('training.no-steps'),
    width: 320,
    height: 150,
    attrs: { 'data-role': 'loss-chart' },
  });
}

/** The loss curve and the scores table beside the model view. */
function panels(say, { lang, step, losses, scores, attentions, crossings, labels }) {
  const formed = crossings.filter((c) => c.step <= step);
  const notes = formed.length
    ? h(
        'ul',
        { class: 'training-crossings', dataset: { role: 'crossings' } },
        formed.map((c) => h('li', {}, say(c.kind === 'induction' ? 'training.became-induction' : 'training.became-previous', c))),
      )
    : null;
  const view = heads(attentions, { lang, rowLabels: labels ?? null, title: say('training.model-view', { step }), aggregates: false, thumbSize: 80 });
  return h(
    'div',
    { class: 'training-panels' },
    h('div', {}, lossChart(losses, say, lang), scoreTable(say, step, scores), notes),
    h('div', { dataset: { role: 'model-view' } }, view),
  );
}

/** Each head's previous-token and induction scores; a score above its threshold marked, the head named. */
function scoreTable(say, step, scores) {
  const cell = (kind, x) => {
    const formed = x > HEAD_THRESHOLDS[kind];
    const badge = formed ? h('span', { class: 'badge' }, say(kind === 'induction' ? 'training.induction-head' : 'training.previous-head')) : null;
    return h('td', { class: formed ? 'formed' : null, dataset: { kind } }, fixed(x, 2), badge);
  };
  const rows = scores.previousToken.flatMap((row, layer) =>
    row.map((previous, head) =>
      h(
        'tr',
        { dataset: { layer: String(layer), head: String(head) } },
        h('th', { scope: 'row' }, say('training.layer-head', { layer, head })),
        cell('previousToken', previous),
        cell('induction', scores.induction[layer][head]),
      ),
    ),
  );
  return h(
    'div',
    {},
    h(
      'table',
      { class: 'training-scores', dataset: { role: 'scores' } },
      h('caption', {}, say('training.scores', { step })),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, say('training.head')),
          h('th', { scope: 'col' }, say('training.previous-score')),
          h('th', { scope: 'col' }, say('training.induction-score')),
        ),
      ),
      h('tbody', {}, rows),
    ),
    h('p', { class: 'training-hint' }, say('training.scores-hint', { previous: HEAD_THRESHOLDS.previousToken, induction: HEAD_THRESHOLDS.induction })),
  );
}

/** The stored run's stepper (previous, a slider over the snapshots, next), built once per element. */
function stepperOf(element, run, say) {
  let stepper = steppers.get(element);
  if (!stepper) {
    const last = run.snapshots.length - 1;
    const slider = h('input', { type: 'range', min: '0', max: String(last), step: '1', value: '0', dataset: { role: 'snapshot' } });
    const output = h('output', { class: 'training-state' });
    const previous = h('button', { type: 'button', class: 'tool', dataset: { action: 'previous' } }, '‹');
    const next = h('button', { type: 'button', class: 'tool', dataset: { action: 'next' } }, '›');
    const label = h('label', {}, h('span', { class: 'training-snapshot-label' }), ' ', slider);
    slider.addEventListener('input', () => element.showSnapshot(Number(slider.value)));
    previous.addEventListener('click', () => element.showSnapshot(Number(slider.value) - 1));
    next.addEventListener('click', () => element.showSnapshot(Number(slider.value) + 1));
    const root = h('div', { class: 'training-stepper', role: 'group', dataset: { role: 'stepper' } }, previous, label, next, output);
    stepper = {
      root,
      update(index) {
        const step = run.snapshots[index].step;
        slider.value = String(index);
        slider.setAttribute('aria-valuetext', say('training.snapshot-step', { step }));
        output.textContent = say('training.snapshot-step', { step });
        label.firstChild.textContent = say('training.snapshot');
        previous.setAttribute('aria-label', say('training.previous-snapshot'));
        next.setAttribute('aria-label', say('training.next-snapshot'));
        root.setAttribute('aria-label', say('training.snapshot'));
      },
    };
    steppers.set(element, stepper);
  }
  if (!stepper.root.isConnected) element.controls.append(stepper.root);
  return stepper;
}
