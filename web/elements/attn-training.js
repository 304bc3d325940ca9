// <attn-training>: a compact live-training figure for a blog post (issue 36, a first form): a small
// transformer trains on a task on a worker (web/model/train/driver.js, the lab's driver) from the
// moment the element comes into view, showing its loss curve, the model view of a probe sequence
// and each head's scores; a button pauses and resumes. With prefers-reduced-motion it waits for
// the button. Importing this module defines the element (it is not in attention-lab/elements yet).
//
//   <script type="module" src="node_modules/attention-lab/web/elements/attn-training.js"></script>
//   <attn-training task="induction" layers="2" heads="4" d-model="32" batch="32" learning-rate="0.003"></attn-training>
//
// Attributes (read when training starts): task (induction | copy | reverse | sort), layers, heads,
// d-model, mlp, batch, learning-rate, max-steps (default 1500). Not yet: a stored run shown under
// reduced motion, Save as HTML, the words in zh-CN.
const DEFAULTS = { task: 'induction', layers: 2, heads: 4, 'd-model': 32, mlp: 0, batch: 32, 'learning-rate': 0.003, 'max-steps': 1500 };

export class AttnTraining extends HTMLElement {
  static observedAttributes = Object.keys(DEFAULTS);

  #trainer = null;
  #starting = null;
  #observer = null;
  #button;
  #status;
  #chart;
  #view;
  #scores;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent =
      ':host{display:block;font:14px/1.4 system-ui,sans-serif}.bar{display:flex;gap:8px;align-items:center;margin-bottom:6px}.scores{font-size:12px;font-variant-numeric:tabular-nums}canvas{max-width:100%}';
    this.#button = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Train' });
    this.#button.dataset.action = 'toggle';
    this.#button.addEventListener('click', () => (this.running ? this.pause() : this.train()));
    this.#status = Object.assign(document.createElement('span'), { textContent: 'not started' });
    this.#status.dataset.role = 'status';
    const bar = Object.assign(document.createElement('div'), { className: 'bar' });
    bar.append(this.#button, this.#status);
    this.#chart = document.createElement('div');
    this.#scores = Object.assign(document.createElement('div'), { className: 'scores' });
    this.#scores.dataset.role = 'scores';
    this.#view = document.createElement('div');
    root.append(style, bar, this.#chart, this.#scores, this.#view);
  }

  /** Whether it is training now. */
  get running() {
    return Boolean(this.#trainer?.state.running);
  }

  /** The driver's state (steps, losses, probe, crossings, snapshots), or null before the first start. */
  get state() {
    return this.#trainer?.state ?? null;
  }

  connectedCallback() {
    const reduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (reduced || !('IntersectionObserver' in globalThis)) return;
    this.#observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      this.#observer.disconnect();
      this.train();
    });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#trainer?.pause();
  }

  #number(name) {
    const raw = this.getAttribute(name);
    if (raw === null) return DEFAULTS[name];
    const x = Number(raw);
    if (!Number.isFinite(x) || x <= 0) throw new RangeError(`${name}: expected a positive number, got "${raw}"`);
    return x;
  }

  async #create() {
    const [{ loadAttention, simdSupported }, { createTrainer }] = await Promise.all([import('../src/index.js'), import('../model/train/driver.js')]);
    const attn = await loadAttention({ simd: simdSupported(), threads: 1 });
    const setup = {
      task: this.getAttribute('task') ?? DEFAULTS.task,
      model: {
        layers: this.#number('layers'),
        heads: this.#number('heads'),
        kvHeads: this.#number('heads'),
        dModel: this.#number('d-model'),
        positions: 'learned',
        mlp: this.getAttribute('mlp') === null ? 0 : this.#number('mlp'),
        seed: 0,
      },
      batch: this.#number('batch'),
      learningRate: this.#number('learning-rate'),
      maxSteps: this.#number('max-steps'),
    };
    const trainer = await createTrainer(attn, setup);
    trainer.listen((state) => this.#draw(state));
    return trainer;
  }

  /** Starts (or resumes) training. */
  async train() {
    try {
      this.#starting ??= this.#create();
      this.#trainer = await this.#starting;
      this.#button.textContent = 'Pause';
      this.#trainer.start();
    } catch (error) {
      this.#status.textContent = error.message;
      this.#status.setAttribute('role', 'alert');
    }
  }

  /** Pauses after the step under way. */
  async pause() {
    await this.#trainer?.pause();
    this.#button.textContent = 'Train';
  }

  async #draw(state) {
    const [{ lineChart }, { heads }] = await Promise.all([import('../figures/line-chart.js'), import('../figures/heads.js')]);
    const loss = state.losses.at(-1);
    this.#status.textContent = `step ${state.step} · loss ${Number.isFinite(loss) ? loss.toFixed(3) : '–'}`;
    this.#status.dataset.step = String(state.step);
    if (!state.running) this.#button.textContent = 'Train';
    this.#chart.replaceChildren(lineChart(state.losses, { title: 'Training loss', width: 320, height: 140, attrs: { 'data-role': 'loss-chart' } }));
    const { previousToken, induction } = state.probe.scores;
    this.#scores.replaceChildren(
      ...previousToken.flatMap((row, l) =>
        row.map((p, h) => {
          const line = document.createElement('div');
          line.textContent = `layer ${l} head ${h}: prev ${p.toFixed(2)} · ind ${Number.isFinite(induction[l][h]) ? induction[l][h].toFixed(2) : '–'}`;
          return line;
        }),
      ),
    );
    this.#view.replaceChildren(
      heads(state.probe.attentions, {
        rowLabels: this.#trainer?.tokenLabels(state.probe.tokens) ?? null,
        title: `Attention weights at step ${state.step}`,
        aggregates: false,
        thumbSize: 56,
      }),
    );
  }
}

if (globalThis.customElements && !customElements.get('attn-training')) customElements.define('attn-training', AttnTraining);
