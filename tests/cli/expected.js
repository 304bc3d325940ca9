// What a figure should show, read without the package's readers: the float32 values of the io
// fixtures from make_fixtures.py's manifest, and the induction example's safetensors decoded here
// from its layout (8-byte header length, JSON header, little-endian F32 data).
import { readFileSync } from 'node:fs';
import { expectedData, manifest } from '../io/fixtures.js';
import { REPO } from './run.js';

export const INDUCTION = 'examples/induction/attention.safetensors';

/** -> { data: Float32Array, shape, tokens } of the induction example's 'attention' tensor. */
export function induction() {
  const bytes = readFileSync(`${REPO}/${INDUCTION}`);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const {
    shape,
    data_offsets: [start, end],
  } = header.attention;
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + 8 + n + start, bytes.byteOffset + 8 + n + end));
  return { data, shape, tokens: JSON.parse(header.__metadata__.tokens) };
}

/** -> { data, shape, dtype } of fixture `file`'s tensor `name`, from the manifest. */
export function fixtureTensor(file, name) {
  const entry = manifest.files[file].tensors[name];
  return { data: expectedData(entry), shape: entry.shape, dtype: entry.dtype };
}

export { manifest };
