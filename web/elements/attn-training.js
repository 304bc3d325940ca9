// <attn-training>: a compact live-training figure for a blog post (issue 36). A small transformer
// trains on a task from the moment the figure comes into view, on a worker (the lab's driver,
// web/model/train/driver.js), and the figure shows its loss curve, each head's previous-token and
// induction scores, the step at which a head became one, and the model view of a probe sequence.
//
//   <attn-training></attn-training>
//   <attn-training task="induction" layers="2" heads="4" d-model="32" learning-rate="0.003" lang="zh-CN"></attn-training>
//
// Attributes (training-setup.js holds their ranges and defaults): task (induction | copy |
// reverse | sort), layers, heads, d-model (a multiple of heads), mlp (0: attention only), batch,
// learning-rate, max-steps, lang. A bad value shows a message naming the attribute and what it
// expects, and nothing trains.
//
// A button (Train / Pause / Resume) controls it from the keyboard. Scrolled out of view for
// AWAY_MS it pauses (and resumes when back, unless the reader paused it); removed from the page it
// ends its worker (moved elsewhere in the page, it starts again). Under prefers-reduced-motion: reduce nothing moves on its own: it shows a
// stored run (training-run.json, made by tools/model/training-run.mjs) with a stepper through
// its snapshots, and a button to train live. The code that trains and draws loads on demand
// (training-view.js with training-setup.js, the API and its wasm core); saved as HTML (the figure menu) the file trains
// on the page's thread, since a worker cannot load the file's packed modules.
import { h } from '../figures/dom.js';
import { figureMessage } from '../i18n/figure-text.js';
import { FigureElement } from './figure-element.js';

// Out of view this long, it pauses: a reader who scrolled on does not want the fan to spin.
const AWAY_MS = 5000;
// The figure redraws at most this often while training (the driver reports every few steps).
const REDRAW_MS = 250;
// A standalone file (figures/export/standalone-html.js) rewrites import.meta.url to its virtual URLs.
const PACKED = import.meta.url.startsWith('attention-lab:');
const STORED_RUN = new URL('./training-run.json', import.meta.url);

export class AttnTraining extends FigureElement {
  // training-setup.js checks them (loaded with the first render, as the drawing code).
  static observedAttributes = ['lang', 'task', 'layers', 'heads', 'd-model', 'mlp', 'batch', 'learning-rate', 'max-steps'];

  #lang = 'en';
  #setupKey = null; // the setup the trainer was made for, as JSON
  #session = null; // Promise<{ attn, trainer }>, made on the first train()
  #trainer = null;
  #view = null; // training-view.js, loaded on the first draw
  #latest = null; // the last state the driver reported
  #redraw = 0; // the timer of the next redraw
  #observer = null;
  #awayTimer = 0;
  #readerPaused = false; // the reader pressed Pause: coming back into view does not resume
  #live = false; // training was asked for (by being in view, or by the button under reduced motion)
  #still = false; // reduced motion, until the reader trains live: nothing starts on its own
  #stored = null; // the stored run shown then
  #snapshot = 0;

  constructor() {
    super();
    const say = (key) => figureMessage('en', key);
    this.button = h('button', { type: 'button', class: 'tool', dataset: { action: 'toggle' }, onclick: () => this.#toggle() }, say('training.train'));
    this.stateLine = h('p', { class: 'training-state', dataset: { role: 'state' } });
    this.controls = h('div', { class: 'training-controls', role: 'group' }, this.button, this.stateLine);
    this.figure = h('div', { class: 'training-figure', dataset: { role: 'figure' } });
    this.body.append(this.controls, this.figure);
    // The grid of heads is canvases: SVG and PNG export would lose it; HTML saves the live figure.
    for (const kind of ['svg', 'png']) this.toolbar.querySelector(`[data-export="${kind}"]`).hidden = true;
  }

  /** Whether it is training now. */
  get running() {
    return Boolean(this.#trainer?.state.running);
  }

  /** The driver's state (step, losses, accuracies, probe, crossings, snapshots), or null before training. */
  get state() {
    return this.#trainer?.state ?? null;
  }

  /** A word of the figure in its language. */
  say(key, params) {
    return figureMessage(this.#lang, key, params);
  }

  async render() {
    this.#lang = this.language();
    this.#view ??= await import('./training-view.js');
    let setupKey;
    try {
      const values = this.#view.readTrainingAttributes(
        (name) => this.getAttribute(name),
        (key, params) => this.say(key, params),
      );
      setupKey = JSON.stringify(this.#view.trainingSetup(values));
    } catch (error) {
      // A bad attribute: its message shows (FigureElement), and nothing trains until it is mended.
      this.#setupKey = null;
      this.#live = false;
      this.figure.replaceChildren();
      this.controls.hidden = true;
      await this.#endSession();
      throw error;
    }
    this.controls.hidden = false;
    if (this.#setupKey !== null && setupKey !== this.#setupKey) await this.#endSession();
    this.#setupKey = setupKey;
    this.#still = !this.#live && matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.#observeViewport();
    if (this.#still) await this.#loadStoredRun();
    else this.#stored = null;
    this.#draw();
  }

  connectedCallback() {
    super.connectedCallback();
    this.#readerPaused = false;
  }

  /** Leaving the page ends the training and its worker; the observer and timers go with it. */
  disconnectedCallback() {
    super.disconnectedCallback();
    this.#observer?.disconnect();
    this.#observer = null;
    clearTimeout(this.#awayTimer);
    clearTimeout(this.#redraw);
    this.#redraw = 0;
    this.#live = false;
    this.#endSession();
  }

  /** Starts training when the figure comes into view; pauses it when it has been away for AWAY_MS. */
  #observeViewport() {
    if (this.#observer) return;
    this.#observer = new IntersectionObserver((entries) => {
      const visible = entries.at(-1).isIntersecting;
      clearTimeout(this.#awayTimer);
      if (visible) {
        if (this.#still || this.#readerPaused) return;
        this.train();
      } else if (this.running) {
        this.#awayTimer = setTimeout(() => this.#pauseTraining(), AWAY_MS);
      }
    });
    this.#observer.observe(this);
  }

  #toggle() {
    if (this.running) {
      this.#readerPaused = true;
      this.pause();
    } else {
      this.#readerPaused = false;
      this.train();
    }
  }

  /** The model and its trainer, made once per setup: on a worker, or on the page's thread in a standalone file. */
  async #createSession() {
    const [{ loadAttention, simdSupported }, { createTrainer }] = await Promise.all([import('../src/index.js'), import('../model/train/driver.js')]);
    const attn = await loadAttention(PACKED ? { simd: simdSupported() } : { simd: simdSupported(), threads: 1 });
    try {
      const trainer = await createTrainer(attn, JSON.parse(this.#setupKey));
      trainer.listen((state) => this.#report(state));
      await trainer.measure();
      return { attn, trainer };
    } catch (error) {
      attn.dispose?.();
      throw error;
    }
  }

  /** Starts (or resumes) training. */
  async train() {
    if (!this.isConnected || this.#setupKey === null) return;
    this.#live = true;
    this.#still = false;
    this.#stored = null;
    try {
      if (!this.#session) {
        this.stateLine.textContent = this.say('training.loading');
        const session = this.#createSession();
        this.#session = session;
        session.catch(() => {
          if (this.#session === session) this.#session = null;
        });
      }
      const session = this.#session;
      const { trainer } = await session;
      if (session !== this.#session || !this.#live) return; // removed or re-set up while loading
      this.#trainer = trainer;
      const loop = trainer.start();
      this.#speakButton();
      await loop;
      if (trainer.state.error) throw trainer.state.error;
    } catch (error) {
      this.showError(new Error(this.say('training.error', { message: error.message }), { cause: error }));
    }
    this.#speakButton();
  }

  /** Pauses after the step under way (the reader's pause: coming back into view does not resume). */
  async pause() {
    await this.#pauseTraining();
  }

  async #pauseTraining() {
    await this.#trainer?.pause();
    this.#speakButton();
  }

  /** Ends the trainer and its worker (removed, or a new setup). */
  async #endSession() {
    const session = this.#session;
    this.#session = null;
    this.#trainer = null;
    this.#latest = null;
    if (!session) return;
    try {
      const { attn, trainer } = await session;
      await trainer.dispose();
      attn.dispose?.();
    } catch {
      // it never started: there is nothing to end
    }
  }

  /** The driver's report: kept, and drawn at most every REDRAW_MS (at once when it stopped). */
  #report(state) {
    this.#latest = state;
    if (!state.running) {
      this.#speakButton();
      this.#drawNow();
      return;
    }
    this.#redraw ||= setTimeout(() => {
      this.#redraw = 0;
      this.#drawNow();
    }, REDRAW_MS);
  }

  #speakButton() {
    const running = this.running;
    const step = this.#trainer?.state.step ?? 0;
    const started = step > 0;
    this.button.disabled = !running && this.#setupKey !== null && step >= JSON.parse(this.#setupKey).maxSteps;
    this.button.textContent = this.say(running ? 'training.pause' : this.#stored ? 'training.train-live' : started ? 'training.resume' : 'training.train');
    this.button.setAttribute('aria-pressed', String(running));
    this.controls.setAttribute('aria-label', this.say('training.controls'));
  }

  async #loadStoredRun() {
    if (!this.#stored) {
      const response = await fetch(STORED_RUN);
      if (!response.ok) throw new Error(`${STORED_RUN.pathname} could not be loaded (HTTP ${response.status})`);
      this.#stored = await response.json();
      this.#snapshot = 0;
    }
  }

  /** Shows snapshot `index` of the stored run. */
  showSnapshot(index) {
    if (!this.#stored) return;
    this.#snapshot = Math.max(0, Math.min(this.#stored.snapshots.length - 1, index));
    this.#drawNow();
  }

  /** Draws the stored run's snapshot, or the training's latest state (throws what fails). */
  #draw() {
    this.#speakButton();
    const say = (key, params) => this.say(key, params);
    if (this.#stored) {
      this.#view.drawStoredRun(this, this.#stored, this.#snapshot, say);
      return;
    }
    const state = this.#latest ?? this.#trainer?.state ?? null;
    const labels = state?.probe ? this.#trainer?.tokenLabels(state.probe.tokens) : null;
    this.#view.drawTraining(this, state, labels, say, JSON.parse(this.#setupKey).maxSteps);
  }

  /** A redraw outside render(): a failure shows in the figure. */
  async #drawNow() {
    if (this.#setupKey === null) return;
    try {
      this.#draw();
    } catch (error) {
      this.showError(error);
    }
  }
}
