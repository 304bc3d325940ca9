// <attn-heads>: the model view (figures' heads()) as an element: a grid of layers x heads of
// attention weights, with aggregates, click to enlarge, hover for exact values. No wasm.
//
//   <attn-heads src="attention.safetensors"></attn-heads>
//   <attn-heads src="model.npz" tensor="attentions" layers="0 1" heads="0 2 5" row-labels="the cat sat"></attn-heads>
//
// Attributes: src (a .npy, .npz, .safetensors or JSON file: (L, H, T, Tk), (H, T, Tk) or BertViz's
// list), tensor (its name when the file holds several), index (leading indices before (L, H, T, Tk)),
// row-labels, col-labels (the T queries' and Tk keys' labels; default: the file's tokens where they
// fit, the keys' the queries' when Tk = T), layers, heads (indices shown, 0-based), aggregates
// ("false" hides the mean and max), thumb-size (px), title. Or inline: attentions as JSON in
// a child <script type="application/json"> ({ attention, rowLabels, colLabels } or the nested array).
// 0.1's tokens attribute and key are refused, naming row-labels and col-labels.
import { toAttentions } from '../model/attentions.js';
import { childJson, flag, integer, labelList, refuseRenamedNames, text, words } from './attributes.js';
import { FigureElement } from './figure-element.js';
import { figureError } from '../i18n/figure-text.js';

function indices(element, name) {
  const list = words(element, name);
  if (list === undefined) return undefined;
  const out = list.map(Number);
  if (out.some((i) => !Number.isInteger(i))) throw figureError(TypeError, 'figure.error.indices', { name, got: element.getAttribute(name) });
  return out;
}

export class AttnHeads extends FigureElement {
  static observedAttributes = ['lang', 'src', 'tensor', 'index', 'row-labels', 'col-labels', 'layers', 'heads', 'aggregates', 'thumb-size', 'title'];

  async render() {
    let attentions;
    let given = {}; // the labels given with the attentions: a file's tokens, or a child's lists
    const child = this.hasAttribute('src') ? null : childJson(this);
    refuseRenamedNames(this, { tokens: ['row-labels', 'col-labels'], label: 'title' }, child, { tokens: ['rowLabels', 'colLabels'] });
    if (this.hasAttribute('src')) {
      const file = await (await import('./file-source.js')).fileTensor(this, 4);
      attentions = toAttentions(file.tensor, 'attn-heads');
      const [, , T, Tk] = attentions.shape;
      const fits = (n) => (file.tokens && file.tokens.length === n ? file.tokens : undefined);
      given = { rowLabels: fits(T), colLabels: fits(Tk) };
    } else {
      if (child === null) throw figureError(TypeError, 'figure.error.needs-attentions');
      attentions = Array.isArray(child) ? child : (child.attention ?? child.attentions);
      if (!Array.isArray(child)) given = { rowLabels: labelList(child.rowLabels, 'rowLabels'), colLabels: labelList(child.colLabels, 'colLabels') };
    }
    const rowLabels = words(this, 'row-labels') ?? given.rowLabels ?? null;
    const colLabels = words(this, 'col-labels') ?? given.colLabels ?? null;
    // The figure code loads with the first <attn-heads>, so pages without one never pay for it.
    const { heads } = await import('../figures/heads.js');
    const aggregates = this.hasAttribute('aggregates') ? flag(this, 'aggregates') : true;
    this.show(
      heads(attentions, {
        rowLabels,
        colLabels,
        layers: indices(this, 'layers'),
        heads: indices(this, 'heads'),
        aggregates,
        thumbSize: integer(this, 'thumb-size'),
        title: text(this, 'title'),
        lang: this.language(),
      }),
    );
    // The grid is canvases: SVG/PNG export of the enlarged map only is left for later; HTML saves it all.
    for (const kind of ['svg', 'png']) this.toolbar.querySelector(`[data-export="${kind}"]`).hidden = true;
    this.#shown = { attention: attentions, rowLabels, colLabels };
  }

  #shown = null;

  /** The attentions as drawn (a src file's block read once), the other attributes as written. */
  async standaloneSpec() {
    if (!this.#shown) throw figureError(Error, 'figure.error.nothing-to-save');
    const { nested } = await import('../model/roles.js');
    const { attention, rowLabels, colLabels } = this.#shown;
    const data = { attention: ArrayBuffer.isView(attention?.data) ? nested(attention.data, attention.shape) : attention, rowLabels, colLabels };
    return super.standaloneSpec(data, ['tensor', 'index', 'row-labels', 'col-labels']);
  }

  exportName() {
    return ['heads', text(this, 'title') ?? ''];
  }
}
