// Attention weights as models hand them out, in one layout: (L, H, T, Tk) float32. Accepted:
// (L, H, T, Tk), (H, T, Tk) (one layer), (L, 1, H, T, Tk) (a stack of Hugging Face's per-layer
// outputs), or BertViz's list of per-layer (1, H, T, Tk) or (H, T, Tk), as nested arrays or tensors.
// The model view (figures/heads.js) draws them; a file's weights (roles.js) are checked with it.
import { toTensor } from '../src/to-tensor.js';

/** (L, H, T, Tk) float32 from any accepted layout. */
export function toAttentions(input, fn = 'heads') {
  let t;
  if (Array.isArray(input) && input.length > 0 && !Array.isArray(input[0]) && typeof input[0] === 'object') {
    // BertViz as tensors: a list of (1, H, T, Tk) or (H, T, Tk), one per layer.
    const layers = input.map((layer, l) => toTensor(layer, `${fn}: attentions[${l}]`));
    const shape = layers[0].shape.slice(-3);
    for (const [l, layer] of layers.entries()) {
      const ok = (layer.shape.length === 3 || (layer.shape.length === 4 && layer.shape[0] === 1)) && layer.shape.slice(-3).every((s, k) => s === shape[k]);
      if (!ok)
        throw new RangeError(
          `${fn}: attentions[${l}] must have shape (1, H, T, Tk) like attentions[0], [1, ${shape.join(', ')}], got [${layer.shape.join(', ')}]`,
        );
    }
    const data = new Float32Array(layers.length * layers[0].data.length);
    layers.forEach((layer, l) => data.set(layer.data, l * layer.data.length));
    t = { data, shape: [layers.length, ...shape] };
  } else {
    t = toTensor(input, `${fn}: attentions`);
    if (t.shape.length === 5 && t.shape[1] === 1) t = { data: t.data, shape: [t.shape[0], ...t.shape.slice(2)] };
    else if (t.shape.length === 3) t = { data: t.data, shape: [1, ...t.shape] };
  }
  if (t.shape.length !== 4 || t.shape.some((s) => s === 0)) {
    throw new RangeError(`${fn}: attentions must have shape (L, H, T, Tk), (H, T, Tk) or be a list of (1, H, T, Tk), got [${t.shape.join(', ')}]`);
  }
  return t;
}
