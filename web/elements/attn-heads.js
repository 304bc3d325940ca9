// <attn-heads>: the model view (figures' heads()) as an element: a grid of layers x heads of
// attention weights, with aggregates, click to enlarge, hover for exact values. No wasm.
//
//   <attn-heads src="attention.safetensors"></attn-heads>
//   <attn-heads src="model.npz" tensor="attentions" layers="0 1" heads="0 2 5" tokens="the cat sat"></attn-heads>
//
// Attributes: src (a .npy, .npz, .safetensors or JSON file: (L, H, T, Tk), (H, T, Tk) or BertViz's
// list), tensor (its name when the file holds several), index (leading indices before (L, H, T, Tk)),
// tokens (default: the file's), layers, heads (indices shown, 0-based), aggregates ("false" hides the
// mean and max), thumb-size (px), label (title). Or inline: attentions as JSON in a child
// <script type="application/json"> ({ attention, tokens } or the nested array).
import { childJson, flag, integer, labelList, text, words } from './attributes.js';
import { FigureElement } from './figure-element.js';

function indices(element, name) {
  const list = words(element, name);
  if (list === undefined) return undefined;
  const out = list.map(Number);
  if (out.some((i) => !Number.isInteger(i))) throw new TypeError(`${name}: expected indices like "0 2 5", got "${element.getAttribute(name)}"`);
  return out;
}

export class AttnHeads extends FigureElement {
  static observedAttributes = ['lang', 'src', 'tensor', 'index', 'tokens', 'layers', 'heads', 'aggregates', 'thumb-size', 'label'];

  async render() {
    let attentions;
    let tokens;
    if (this.hasAttribute('src')) {
      ({ tensor: attentions, tokens } = await (await import('./file-source.js')).fileTensor(this, 4));
    } else {
      const child = childJson(this);
      if (child === null) throw new TypeError('needs attentions: a src="attention.safetensors" attribute or a child <script type="application/json">');
      attentions = Array.isArray(child) ? child : (child.attention ?? child.attentions);
      tokens = Array.isArray(child) ? undefined : labelList(child.tokens, 'tokens');
    }
    // The figure code loads with the first <attn-heads>, so pages without one never pay for it.
    const { heads } = await import('../figures/heads.js');
    const aggregates = this.hasAttribute('aggregates') ? flag(this, 'aggregates') : true;
    this.show(
      heads(attentions, {
        tokens: words(this, 'tokens') ?? tokens ?? null,
        layers: indices(this, 'layers'),
        heads: indices(this, 'heads'),
        aggregates,
        thumbSize: integer(this, 'thumb-size'),
        title: text(this, 'label'),
      }),
    );
    // The grid is canvases: SVG/PNG export of the enlarged map only is left for later; HTML saves it all.
    for (const kind of ['svg', 'png']) this.toolbar.querySelector(`[data-export="${kind}"]`).hidden = true;
    this.#shown = { attention: attentions, tokens };
  }

  #shown = null;

  /** The attentions as drawn (a src file's block read once), the other attributes as written. */
  async standaloneSpec() {
    if (!this.#shown) throw new Error('there is no figure to save yet');
    const { nested } = await import('../model/roles.js');
    const { attention, tokens } = this.#shown;
    const data = { attention: ArrayBuffer.isView(attention?.data) ? nested(attention.data, attention.shape) : attention, tokens };
    return super.standaloneSpec(data, ['tensor', 'index']);
  }

  exportName() {
    return ['heads', text(this, 'label') ?? ''];
  }
}
