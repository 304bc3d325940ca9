// The Train loop: SGD steps at the chosen steps per second, each from the gradients of the state
// on screen. The app computes every new state once per frame and shows the trainer the result
// (observe), so a step never computes anything twice; the next step waits for that result.
// createTrainer(store, { t }, onChange): t gives its stop messages in the page language.
import { sgdStep, trainedLeaves } from './sgd.js';
import { sizesOf } from '../../../model/state/model.js';

const hasGradients = (result) => Boolean(result?.backward && !result.backward.error);

/** What makes a loss curve one experiment: a new preset or size starts another (every head trains, so showing another head does not). */
const experimentKey = (state) => JSON.stringify([state.preset, state.source, sizesOf(state)]);

/**
 * store: the app's store. onChange(trainer) after anything a panel shows changed.
 * -> { running, history, start(), stop(reason?), step(), reset(), observe(state, result) }
 */
export function createTrainer(store, { t }, onChange) {
  let timer = 0;
  let lastStepAt = 0;
  let awaiting = false; // a step was stored and its result not seen yet
  let seen = null; // { state, result } last shown
  let before = null; // the trained matrices before the first step (Reset restores them)
  let key = '';

  const trainer = {
    running: false,
    history: [], // the loss before the first step, then after each step
    stopReason: '',
    start() {
      trainer.running = true;
      trainer.stopReason = '';
      schedule();
      onChange(trainer);
    },
    stop(reason = '') {
      trainer.running = false;
      trainer.stopReason = reason;
      clearTimeout(timer);
      timer = 0;
      onChange(trainer);
    },
    step: () => stepNow(),
    reset() {
      trainer.stop();
      if (before) store.update((s) => ({ ...s, ...before }));
      before = null;
      trainer.history = [];
      onChange(trainer);
    },
    observe(state, result) {
      const k = experimentKey(state);
      if (k !== key) {
        if (trainer.running) trainer.stop();
        key = k;
        before = null;
        trainer.history = [];
        awaiting = false;
      }
      seen = { state, result };
      if (awaiting && hasGradients(result)) {
        awaiting = false;
        trainer.history.push(result.backward.loss);
        if (!Number.isFinite(result.backward.loss)) trainer.stop(t('site.train-diverged'));
      }
      if (trainer.running && !timer) schedule();
    },
  };

  function schedule() {
    const delay = Math.max(0, lastStepAt + 1000 / store.get().backward.stepsPerSecond - performance.now());
    timer = setTimeout(() => {
      timer = 0;
      if (trainer.running) stepNow();
    }, delay);
  }

  function stepNow() {
    // Only from the result of the state on screen; otherwise the next observe() schedules again.
    if (!seen || seen.state !== store.get() || awaiting) return;
    if (!hasGradients(seen.result)) {
      trainer.stop(t('site.train-no-gradients'));
      return;
    }
    if (!before) before = Object.fromEntries(trainedLeaves(seen.state).map(([leaf]) => [leaf, seen.state[leaf]]));
    if (trainer.history.length === 0) trainer.history.push(seen.result.backward.loss);
    awaiting = true;
    lastStepAt = performance.now();
    const { backward } = seen.result;
    store.update((s) => sgdStep(s, backward));
  }

  return trainer;
}
