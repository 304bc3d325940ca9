// .safetensors (Hugging Face's format): an 8-byte little-endian header length N, N bytes of JSON
//   {"__metadata__": {"k": "v"}, "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [b, e]}}
// (padded with spaces), then the data, little-endian, offsets relative to its start. As the
// reference reader does, the tensors must cover the data exactly: no overlaps, no holes.
import { DTYPES, decode } from './dtypes.js';
import { HEADER_LIMIT, checkTokens, defineEntry, elementCount, formatShape, stringMap } from './fail.js';

export const SAFETENSORS_DTYPES = {
  F64: 'float64',
  F32: 'float32',
  F16: 'float16',
  BF16: 'bfloat16',
  I64: 'int64',
  I32: 'int32',
  I16: 'int16',
  I8: 'int8',
  U64: 'uint64',
  U32: 'uint32',
  U16: 'uint16',
  U8: 'uint8',
  BOOL: 'bool',
};

/** The header length, or -1 when the first 8 bytes cannot start a safetensors file of this size. */
export function safetensorsHeaderLength(bytes) {
  if (bytes.length < 8) return -1;
  const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
  const high = view.getUint32(4, true);
  return high ? Infinity : view.getUint32(0, true);
}

function metadataTokens(text, problem) {
  let list;
  try {
    list = JSON.parse(text);
  } catch {
    throw problem.type('__metadata__.tokens must hold a JSON list of strings (json.dumps(tokens)), got text that is not JSON');
  }
  return checkTokens(list, '__metadata__.tokens', problem);
}

/** An own property of a header object (never one inherited from a polluted Object.prototype). */
const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);

const isSize = (n) => Number.isSafeInteger(n) && n >= 0;

/** Header entry `name` -> { name, dtype, shape, count, begin, end }, every field checked, nothing decoded. */
function tensorEntry(name, entry, dataLength, problem) {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
    throw problem.type(`tensor '${name}' must be an object with dtype, shape and data_offsets`);
  const fileDtype = own(entry, 'dtype');
  if (typeof fileDtype !== 'string' || !Object.hasOwn(SAFETENSORS_DTYPES, fileDtype)) {
    throw problem.type(`tensor '${name}' has unknown dtype ${JSON.stringify(fileDtype)} (a string, one of ${Object.keys(SAFETENSORS_DTYPES).join(', ')})`);
  }
  const dtype = SAFETENSORS_DTYPES[fileDtype];
  const shape = own(entry, 'shape');
  if (!Array.isArray(shape)) throw problem.type(`tensor '${name}': shape must be a list of sizes, got ${JSON.stringify(shape)}`);
  const count = elementCount(shape, `tensor '${name}'`, problem);
  const offsets = own(entry, 'data_offsets');
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isSize) || offsets[0] > offsets[1]) {
    throw problem.range(`tensor '${name}': data_offsets must be [begin, end], two integers with 0 <= begin <= end, got ${JSON.stringify(offsets)}`);
  }
  const [begin, end] = offsets;
  if (end > dataLength) throw problem.range(`tensor '${name}': data_offsets [${begin}, ${end}] run past the end of the data (${dataLength} bytes; truncated?)`);
  const needed = count * DTYPES[dtype].size;
  if (end - begin !== needed)
    throw problem.range(
      `tensor '${name}': shape ${formatShape(shape)} of ${fileDtype} needs ${needed} bytes, data_offsets [${begin}, ${end}] hold ${end - begin}`,
    );
  return { name, dtype, shape: [...shape], count, begin, end };
}

/** The tensors tile the data: sorted by begin, each starts where the previous one ended. */
function checkTiling(entries, dataLength, problem) {
  const spans = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let covered = 0;
  let previous = null;
  for (const span of spans) {
    if (span.begin < covered) throw problem.range(`tensors '${previous.name}' and '${span.name}' overlap (bytes ${span.begin}..${covered})`);
    if (span.begin > covered) throw problem.range(`bytes ${covered}..${span.begin} of the data belong to no tensor (a hole)`);
    covered = span.end;
    previous = span;
  }
  if (covered !== dataLength) throw problem.range(`${dataLength - covered} bytes after the last tensor belong to no tensor`);
}

/**
 * bytes of a .safetensors -> { tensors, tokens?, metadata? }. The whole header is checked first
 * (every entry, the tiling, the float32 size against `budget`); only then is any tensor decoded.
 */
export function readSafetensors(bytes, problem, budget) {
  const headerLength = safetensorsHeaderLength(bytes);
  if (headerLength < 0) throw problem.range(`is truncated: ${bytes.length} bytes, less than the 8-byte header length`);
  if (headerLength > HEADER_LIMIT) throw problem.range(`header of ${headerLength} bytes is over the 100 MB limit`);
  if (8 + headerLength > bytes.length) throw problem.range(`header runs past the end (${headerLength} bytes from byte 8, the file has ${bytes.length})`);
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLength)));
  } catch (error) {
    throw problem.type(`header is not valid JSON (${error.message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw problem.type('header must be a JSON object of tensors');
  const dataStart = 8 + headerLength;
  const dataLength = bytes.length - dataStart;
  const entries = [];
  let metadata;
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') metadata = stringMap(entry, '__metadata__', problem);
    else entries.push(tensorEntry(name, entry, dataLength, problem));
  }
  checkTiling(entries, dataLength, problem);
  const tokens = metadata && Object.hasOwn(metadata, 'tokens') ? metadataTokens(metadata.tokens, problem) : undefined;
  for (const e of entries) budget.spend(e.count * 4, `tensor '${e.name}'`);
  const tensors = {};
  for (const e of entries) {
    defineEntry(tensors, e.name, { data: decode(bytes, dataStart + e.begin, e.count, e.dtype, true), shape: e.shape, dtype: e.dtype });
  }
  return { tensors, tokens, metadata };
}
