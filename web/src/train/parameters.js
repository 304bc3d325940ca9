// A transformer's parameters as PyTorch's state_dict names, shapes and layouts them (tools/model/
// transformer.py), read from and written to the model's parameter block in wasm memory. A tied
// model keeps one embedding, tok.weight, which the state_dict also lists as unembed.weight.
import { formatShape, shapeSize, tensor, toTensor } from '../boundary/tensor.js';
import { firstNonFinite } from '../boundary/validate.js';

/** The binding's "name=s0,s1@offset;..." -> [{ name, shape, offset, size }] in state_dict order. */
export function parseLayout(text) {
  return text.split(';').map((entry) => {
    const [, name, shape, offset] = entry.match(/^(.+)=([\d,]+)@(\d+)$/);
    const dims = shape.split(',').map(Number);
    return { name, shape: dims, offset: Number(offset), size: shapeSize(dims) };
  });
}

// train_induction.py's Model also saves its causal masks as buffers: not parameters, ignored on load.
const IGNORED = /^layers\.\d+\.causal$/;

/** name -> tensor copies of the floats at float index `base` of `heap`, per layout entry; tied adds unembed.weight. */
export function readParameters(heap, base, layout, tie) {
  const out = {};
  for (const p of layout) out[p.name] = tensor(heap.slice(base + p.offset, base + p.offset + p.size), p.shape);
  if (tie) out['unembed.weight'] = tensor(out['tok.weight'].data.slice(), out['tok.weight'].shape);
  return reorderTied(out, layout, tie);
}

// state_dict order: unembed.weight just before unembed.bias.
function reorderTied(map, layout, tie) {
  if (!tie) return map;
  const ordered = {};
  for (const p of layout) {
    if (p.name === 'unembed.bias') ordered['unembed.weight'] = map['unembed.weight'];
    ordered[p.name] = map[p.name];
  }
  return ordered;
}

/** A plain object or a Map of name -> tensor, as [name, value] pairs (own properties only). */
function entriesOf(fn, map) {
  if (map instanceof Map) return [...map.entries()];
  if (map === null || typeof map !== 'object' || Array.isArray(map) || ArrayBuffer.isView(map)) {
    throw new TypeError(
      `${fn}: parameters must be an object (or a Map) from name to tensor, got ${map === null ? 'null' : Array.isArray(map) ? 'an array' : typeof map}`,
    );
  }
  return Object.keys(map).map((name) => [name, map[name]]);
}

/**
 * The checked map -> [{ offset, data: Float32Array }] to write: every parameter of the layout
 * present once with its shape and finite values, nothing else (a tied model takes tok.weight,
 * unembed.weight or both, equal). Nothing is written before all of it is checked.
 */
export function checkedParameters(fn, map, layout, tie) {
  const byName = new Map(layout.map((p) => [p.name, p]));
  const given = new Map();
  for (const [name, value] of entriesOf(fn, map)) {
    if (IGNORED.test(name)) continue;
    const alias = tie && name === 'unembed.weight';
    const p = byName.get(alias ? 'tok.weight' : name);
    if (p === undefined) {
      throw new RangeError(`${fn}: unknown parameter '${name}' (this model's are ${[...byName.keys(), ...(tie ? ['unembed.weight'] : [])].join(', ')})`);
    }
    const t = toTensor(value, `${fn}: ${name}`);
    if (t.shape.length !== p.shape.length || t.shape.some((s, a) => s !== p.shape[a])) {
      throw new RangeError(`${fn}: ${name} must have shape ${formatShape(p.shape)}, got ${formatShape(t.shape)}`);
    }
    const bad = firstNonFinite(t.data);
    if (bad >= 0) throw new RangeError(`${fn}: ${name} must hold finite numbers, got ${t.data[bad]} at flat index ${bad}`);
    if (given.has(p.name)) {
      const other = given.get(p.name).data;
      if (other.some((x, i) => x !== t.data[i])) throw new RangeError(`${fn}: unembed.weight must equal tok.weight: the model ties them`);
    }
    given.set(p.name, { offset: p.offset, data: t.data });
  }
  const missing = layout.filter((p) => !given.has(p.name)).map((p) => p.name);
  if (missing.length > 0) throw new RangeError(`${fn}: missing parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return [...given.values()];
}
