// <attn-figure>: the explorer's pipeline, or a chosen subset of its stages, computed live by the
// wasm core once the figure nears the viewport (lazy.js: one module instance per page).
//
//   <attn-figure preset="seed-004" stages="scores weights output"></attn-figure>
//   <attn-figure preset="d2l" view="heatmap"></attn-figure>
//   <attn-figure causal editable>
//     <script type="application/json">{ "x": [[1, 2], [0, 1], [3, 1]], "wq": [[[1, 0], [0, 1]]],
//       "wk": [[[1, 1], [0, 1]]], "wv": [[[1, 0], [1, 1]]], "tokens": ["I", "like", "tea"] }</script>
//   </attn-figure>
//
// Attributes (web/figures/pipeline/state.js and web/figures/pipeline/pipeline.js say what each value means):
//   preset      seed-004 | seed-002 | d2l | sentence | sliding-window | alibi | rotary | decode | random
//   data        JSON of a partial explorer state (or a child <script type="application/json">)
//   stages      stage ids, e.g. "q k v scores weights output" (default: the whole forward pass)
//   scoring     dot | scaled-dot | general | additive | concat;  compare: more scorings beside it
//   causal      present: top-left; or "bottom-right", "none"
//   valid-lens  "2 6" per batch, or JSON [[1, 2, 3]] per query row
//   mask-fill   -1e6 (d2l's fill) | none (the default: a fully masked row is zeros);  heads: number of heads;  head: the head shown (0-based)
//   window      "2 0": sliding window [left, right] (-1: no limit)
//   alibi       present (or "paper") for the paper's slopes; "0.5 0.25" (or "0.5, 0.25") for one
//               slope per head, each finite and > 0; "off" for none
//   rope        present (or "halves"): rotary positions as Llama; "interleaved" as GPT-J;
//               JSON { "base": 500, "interleaved": true } for another base
//   kv-heads    grouped heads: the K, V heads the query heads share (a divisor of heads)
//   view        matrix | heatmap | links
//   backward    also the backward pass (loss, dO ... dW)
//   editable    X, the weights, the target (and given Q, K, V) can be typed or dragged; a click
//               on a score masks it; everything downstream recomputes
//   captions    a sentence under each matrix;  theme: light | dark | auto
//   src         a .npy/.npz/.safetensors/JSON file holding x, wq, wk, wv (or q, k, v; PyTorch's
//               q_proj.weight ... names too), over data;  transpose: the weights stored as
//               nn.Linear's (out, in), e.g. "wq wk wv" (default: those that only fit transposed)
import { alibi, causal, childJson, flag, integer, json, maskFill, rope, slidingWindow, text, validLens, words } from './attributes.js';
import { FigureElement } from './figure-element.js';
import { figureError } from '../i18n/figure-text.js';
import { figureRuntime, whenNear } from './lazy.js';

export class AttnFigure extends FigureElement {
  static observedAttributes = [
    'lang',
    'preset',
    'data',
    'stages',
    'scoring',
    'compare',
    'causal',
    'valid-lens',
    'mask-fill',
    'window',
    'alibi',
    'rope',
    'heads',
    'kv-heads',
    'head',
    'view',
    'backward',
    'editable',
    'captions',
    'src',
    'transpose',
  ];

  #near = false;
  #cancelNear = null;
  #runtime = null;
  #backward = null; // backwardPass, loaded when the spec shows a gradient
  #parts = {}; // the figure code loaded on demand (renderPipeline's parts): the gallery view, the backward stages
  #spec = null;
  #store = null; // the figure's state and its edits (web/model/state/store.js)
  #cells = null;

  /** The explorer state the figure shows (after edits), or null before the first render. */
  get state() {
    return this.#store?.get() ?? null;
  }

  /** The figure spec from the attributes (and the child script); throws on a malformed attribute. */
  spec() {
    return {
      preset: text(this, 'preset'),
      data: json(this, 'data') ?? childJson(this) ?? undefined,
      stages: words(this, 'stages'),
      scoring: text(this, 'scoring'),
      compare: words(this, 'compare'),
      causal: causal(this),
      validLens: validLens(this),
      maskFill: maskFill(this),
      window: slidingWindow(this),
      alibi: alibi(this),
      rope: rope(this),
      heads: integer(this, 'heads'),
      kvHeads: integer(this, 'kv-heads'),
      head: integer(this, 'head'),
      view: text(this, 'view'),
      backward: flag(this, 'backward'),
      editable: flag(this, 'editable'),
      captions: flag(this, 'captions'),
      lang: this.language(),
    };
  }

  disconnectedCallback() {
    this.#cancelNear?.();
    this.#cancelNear = null;
  }

  async render() {
    const spec = this.spec(); // attribute errors show at once, before any download
    if (!this.#near) {
      this.#cancelNear ??= whenNear(this, () => {
        this.#near = true;
        this.scheduleRender();
      });
      return false;
    }
    if (this.hasAttribute('src')) {
      const { fileState } = await import('./file-source.js');
      spec.data = { ...(spec.data ?? {}), ...(await fileState(this)) };
    }
    this.#runtime = await figureRuntime();
    // The controller comes with the figure code: before it there is no cell to touch.
    this.#cells ??= this.#runtime.cellController(this.body, {
      state: () => this.#store.get(),
      edit: (change) => this.#edit(change),
      enabled: () => Boolean(this.#spec?.editable),
    });
    // Only the code the spec draws (figures/pipeline/load.js, as pipeline()): its preset, the
    // backward pass when it shows a gradient, the gallery for the heatmap and links views.
    const { state, backward, parts } = await this.#runtime.loadFigure(spec);
    this.#backward = backward;
    this.#parts = parts;
    await this.#cells.ready(spec.editable); // an editable figure's editing code, before it says it is drawn
    this.#spec = spec;
    const store = this.#runtime.createStore(state, { conform: this.#runtime.conform, schedule: requestAnimationFrame });
    this.#store = store;
    store.subscribe(() => {
      if (store !== this.#store) return; // a newer spec replaced it before its frame came
      try {
        this.#draw();
        this.showError(null);
        this.dispatchEvent(new CustomEvent('attn-render', { bubbles: true, composed: true, detail: { edited: true } }));
      } catch (error) {
        this.showError(error);
      }
    });
    this.#draw();
  }

  #draw() {
    const { attn, compute, renderPipeline } = this.#runtime;
    const state = this.#store.get();
    this.#cells.show(renderPipeline(state, compute(attn, state, { backward: this.#backward }), this.#spec, this.#parts));
  }

  /** An edit of the state: redrawn once per frame, however many edits came in it. */
  #edit(change) {
    this.#store.update(change);
  }

  /** The state as shown (after edits) as data; the attributes that only choose what to draw. */
  standaloneSpec() {
    const state = this.state;
    if (!state) throw figureError(Error, 'figure.error.nothing-to-save');
    const drawn = ['stages', 'view', 'backward', 'editable', 'captions', 'theme', 'compare', 'head'];
    const spec = super.standaloneSpec(
      state,
      [...this.getAttributeNames()].filter((n) => !drawn.includes(n)),
    );
    return { ...spec, title: `attention-lab: ${state.preset ?? 'figure'}` };
  }

  exportName() {
    const spec = this.#spec ?? {};
    return [this.state?.preset ?? 'figure', spec.view ?? '', ...(spec.stages ?? [])];
  }
}
