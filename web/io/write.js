// writeNpy(tensor) and writeSafetensors(tensors, metadata?) -> Uint8Array of float32, little-endian,
// C order, so readTensors gives back the same bits. writeNpy's header is the one numpy.save writes
// (version 1.0 while it fits, dict keys sorted, spaces for the first axis to grow, 64-byte aligned),
// so a float32 C-order array saves to the same bytes from NumPy and from here.
import { toTensor } from '../src/to-tensor.js';
import { defineEntry } from './fail.js';

const ALIGN = 64; // numpy.lib.format.ARRAY_ALIGN
const GROWTH_AXIS_MAX_DIGITS = 21; // numpy.lib.format: room for the first axis to grow in place

const latin1 = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function pythonTuple(shape) {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

export function writeNpy(input) {
  const { data, shape } = toTensor(input, 'writeNpy: tensor');
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${pythonTuple(shape)}, }`;
  if (shape.length > 0) header += ' '.repeat(Math.max(0, GROWTH_AXIS_MAX_DIGITS - String(shape[0]).length));
  // magic (6) + version (2) + length (2 or 4) + header + padding + '\n' is a multiple of ALIGN.
  let lengthBytes = 2;
  let padded = header.length + 1 + ((ALIGN - ((10 + header.length + 1) % ALIGN)) % ALIGN);
  if (padded > 0xffff) {
    lengthBytes = 4;
    padded = header.length + 1 + ((ALIGN - ((12 + header.length + 1) % ALIGN)) % ALIGN);
  }
  const start = 8 + lengthBytes;
  const out = new Uint8Array(start + padded + data.length * 4);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, lengthBytes === 2 ? 1 : 2, 0]);
  const view = new DataView(out.buffer);
  if (lengthBytes === 2) view.setUint16(8, padded, true);
  else view.setUint32(8, padded, true);
  out.set(latin1(header.padEnd(padded - 1, ' ') + '\n'), start);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), start + padded);
  return out;
}

/** An object of strings; `tokens` may also be a list of strings (stored as its JSON, as readTensors reads it). */
function metadataStrings(metadata) {
  if (metadata === undefined) return undefined;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    throw new TypeError(`writeSafetensors: metadata must be an object of strings, got ${metadata === null ? 'null' : typeof metadata}`);
  const out = {};
  for (const key of Object.keys(metadata)) {
    const d = Object.getOwnPropertyDescriptor(metadata, key);
    if (!('value' in d)) throw new TypeError(`writeSafetensors: metadata.${key} must be a plain value, not a getter`);
    let v = d.value;
    if (key === 'tokens' && Array.isArray(v) && v.every((t) => typeof t === 'string')) v = JSON.stringify(v);
    if (typeof v !== 'string')
      throw new TypeError(
        `writeSafetensors: metadata.${key} must be a string${key === 'tokens' ? ' or a list of strings' : ''}, got ${v === null ? 'null' : typeof v}`,
      );
    defineEntry(out, key, v);
  }
  return out;
}

export function writeSafetensors(tensors, metadata) {
  if (tensors === null || typeof tensors !== 'object' || Array.isArray(tensors)) {
    throw new TypeError(
      `writeSafetensors: tensors must be an object of name -> tensor, got ${tensors === null ? 'null' : Array.isArray(tensors) ? 'an array' : typeof tensors}`,
    );
  }
  const header = {};
  const meta = metadataStrings(metadata);
  if (meta) header.__metadata__ = meta;
  const parts = [];
  let offset = 0;
  for (const name of Object.keys(tensors).sort()) {
    if (name === '__metadata__') throw new TypeError("writeSafetensors: '__metadata__' is reserved, not a tensor name");
    const d = Object.getOwnPropertyDescriptor(tensors, name);
    if (!('value' in d)) throw new TypeError(`writeSafetensors: tensors.${name} must be a plain value, not a getter`);
    const { data, shape } = toTensor(d.value, `writeSafetensors: tensors.${name}`);
    defineEntry(header, name, { dtype: 'F32', shape, data_offsets: [offset, offset + data.byteLength] });
    parts.push(data);
    offset += data.byteLength;
  }
  // The header is padded with spaces to 8 bytes, so the data (and each float32) starts aligned.
  const json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8;
  const out = new Uint8Array(8 + padded + offset);
  new DataView(out.buffer).setUint32(0, padded, true);
  out.fill(0x20, 8, 8 + padded);
  out.set(json, 8);
  let at = 8 + padded;
  for (const data of parts) {
    out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
    at += data.byteLength;
  }
  return out;
}
