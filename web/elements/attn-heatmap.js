// <attn-heatmap>: a heatmap of given attention weights, like d2l's show_heatmaps. No wasm.
//
//   <attn-heatmap weights="[[0.9, 0.1], [0.3, 0.7]]" row-labels="the cat" col-labels="the cat"></attn-heatmap>
//   <attn-heatmap title="Head 1"><script type="application/json">
//     { "weights": [[0.9, 0.1], [0.3, 0.7]], "rowLabels": ["the", "cat"], "colLabels": ["the", "cat"] }
//   </script></attn-heatmap>
//
// Attributes: weights (JSON, (Tq, Tk) or (B, Tq, Tk)), row-labels, col-labels (lists), title (the
// figure's title, as the figures' option; 0.1's label is refused), xlabel, ylabel, color-scale ('weights': [0, 1], the default; 'signed': around
// 0, for scores), numbers (draw the values), masked (JSON flags like weights, 1 = masked),
// theme. A child <script type="application/json"> holds the same as an array (the weights) or an
// object { weights, rowLabels, colLabels, masked, title }; attributes win over it.
// From a file instead: src (a .npy, .npz, .safetensors or JSON file), tensor (its name), index
// (leading indices, e.g. "0 3" for layer 0, head 3 of (L, H, T, T)), as in
// <attn-heatmap src="attn.safetensors" index="0 3">; row-labels and col-labels default to the
// file's tokens where they fit. (0.1's tokens attribute is refused, naming row-labels and col-labels.)
import { toTensor } from '../src/to-tensor.js';
import { booleanValue, childJson, flag, json, labelList, refuseRenamedNames, text, textValue, words } from './attributes.js';
import { FigureElement } from './figure-element.js';
import { figureError } from '../i18n/figure-text.js';

export class AttnHeatmap extends FigureElement {
  static observedAttributes = [
    'lang',
    'weights',
    'row-labels',
    'col-labels',
    'title',
    'xlabel',
    'ylabel',
    'color-scale',
    'numbers',
    'masked',
    'src',
    'tensor',
    'index',
  ];

  /** The heatmap's inputs from the attributes over the child script. */
  spec() {
    const child = childJson(this);
    if (child !== null && typeof child !== 'object') throw figureError(TypeError, 'figure.error.child-weights', { got: typeof child });
    const given = Array.isArray(child) ? { weights: child } : (child ?? {});
    const weights = json(this, 'weights') ?? given.weights;
    if (weights === undefined) throw figureError(TypeError, 'figure.error.needs-weights');
    const masked = json(this, 'masked') ?? given.masked;
    return {
      weights: toTensor(weights, 'weights'),
      masked: masked === undefined || masked === null ? null : toTensor(masked, 'masked', Uint8Array).data,
      rowLabels: words(this, 'row-labels') ?? labelList(given.rowLabels, 'rowLabels'),
      colLabels: words(this, 'col-labels') ?? labelList(given.colLabels, 'colLabels'),
      title: text(this, 'title') ?? textValue(given.title, 'title'),
      xlabel: text(this, 'xlabel') ?? textValue(given.xlabel, 'xlabel'),
      ylabel: text(this, 'ylabel') ?? textValue(given.ylabel, 'ylabel'),
      colorScale: text(this, 'color-scale') ?? textValue(given.colorScale, 'colorScale'),
      numbers: flag(this, 'numbers') || (booleanValue(given.numbers, 'numbers') ?? false),
    };
  }

  /** The spec with the weights and tokens of the src file (attributes still win for labels). */
  async fileSpec() {
    const { tensor, tokens } = await (await import('./file-source.js')).fileTensor(this, 3);
    const [Tq, Tk] = tensor.shape.slice(-2);
    const fits = (n) => (tokens && tokens.length === n ? tokens : undefined);
    return {
      weights: tensor,
      masked: null,
      rowLabels: words(this, 'row-labels') ?? fits(Tq),
      colLabels: words(this, 'col-labels') ?? fits(Tk),
      title: text(this, 'title'),
      xlabel: text(this, 'xlabel'),
      ylabel: text(this, 'ylabel'),
      colorScale: text(this, 'color-scale'),
      numbers: flag(this, 'numbers'),
    };
  }

  #shown = null; // what the figure draws, for a standalone file

  async render() {
    refuseRenamedNames(this, { tokens: ['row-labels', 'col-labels'], label: 'title' }, childJson(this), { label: 'title' });
    const shown = this.hasAttribute('src') ? await this.fileSpec() : this.spec();
    const { weights, masked, ...options } = shown;
    if (weights.shape.length < 2 || weights.shape.length > 3) {
      throw figureError(RangeError, 'figure.error.weights-shape', { shape: weights.shape.join(', ') });
    }
    const [Tq, Tk] = weights.shape.slice(-2);
    for (const [name, labels, n] of [
      ['row-labels', options.rowLabels, Tq],
      ['col-labels', options.colLabels, Tk],
    ]) {
      if (labels !== undefined && labels.length !== n)
        throw figureError(RangeError, 'figure.error.label-count', { name, count: n, rows: Tq, cols: Tk, got: labels.length });
    }
    if (masked && masked.length !== weights.data.length)
      throw figureError(RangeError, 'figure.error.masked-count', { count: weights.data.length, got: masked.length });
    // The figure's code loads with the first heatmap drawn, not with the element definitions.
    const { heatmapOrCanvas } = await import('../figures/heatmap-or-canvas.js');
    const figure = heatmapOrCanvas(weights, { ...options, masked, lang: this.language() });
    this.show(figure);
    // A map above the SVG cell budget is a canvas: HTML saves it; SVG and PNG export SVG cells only.
    const drawnAsSvg = figure.localName === 'svg';
    for (const kind of ['svg', 'png']) this.toolbar.querySelector(`[data-export="${kind}"]`).hidden = !drawnAsSvg;
    this.#shown = shown;
  }

  /** The weights and labels as drawn (a src file's block read once), the other attributes as written. */
  async standaloneSpec() {
    if (!this.#shown) throw figureError(Error, 'figure.error.nothing-to-save');
    const { nested } = await import('../model/roles.js');
    const { weights, masked, rowLabels, colLabels } = this.#shown;
    const data = { weights: nested(weights.data, weights.shape), masked: masked && nested(masked, weights.shape), rowLabels, colLabels };
    return super.standaloneSpec(data, ['weights', 'masked', 'row-labels', 'col-labels', 'tensor', 'index']);
  }

  exportName() {
    return ['heatmap', text(this, 'title') ?? ''];
  }
}
