// .safetensors (Hugging Face's format): an 8-byte little-endian header length N, N bytes of JSON
//   {"__metadata__": {"k": "v"}, "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [b, e]}}
// (padded with spaces), then the data, little-endian, offsets relative to its start. As the
// reference reader does, the tensors must cover the data exactly: no overlaps, no holes.
import { DTYPES, decode } from './dtypes.js';
import { HEADER_LIMIT, checkTokens, defineEntry, elementCount, formatShape, stringMap } from './fail.js';

export const SAFETENSORS_DTYPES = {
  F64: 'float64', F32: 'float32', F16: 'float16', BF16: 'bfloat16',
  I64: 'int64', I32: 'int32', I16: 'int16', I8: 'int8',
  U64: 'uint64', U32: 'uint32', U16: 'uint16', U8: 'uint8', BOOL: 'bool',
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
    throw problem.type("__metadata__.tokens must hold a JSON list of strings (json.dumps(tokens)), got text that is not JSON");
  }
  return checkTokens(list, '__metadata__.tokens', problem);
}

export function readSafetensors(bytes, problem) {
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
  const tensors = {};
  const spans = [];
  let metadata;
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = stringMap(entry, '__metadata__', problem);
      continue;
    }
    if (entry === null || typeof entry !== 'object') throw problem.type(`tensor '${name}' must be an object with dtype, shape and data_offsets`);
    const dtype = SAFETENSORS_DTYPES[entry.dtype];
    if (!dtype || !Object.hasOwn(SAFETENSORS_DTYPES, entry.dtype)) {
      throw problem.type(`tensor '${name}' has unknown dtype ${JSON.stringify(entry.dtype)} (known: ${Object.keys(SAFETENSORS_DTYPES).join(', ')})`);
    }
    if (!Array.isArray(entry.shape)) throw problem.type(`tensor '${name}': shape must be a list of sizes`);
    const count = elementCount(entry.shape, `tensor '${name}'`, problem);
    const offsets = entry.data_offsets;
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0) || offsets[0] > offsets[1]) {
      throw problem.range(`tensor '${name}': data_offsets must be [begin, end] with 0 <= begin <= end, got ${JSON.stringify(offsets)}`);
    }
    const [begin, end] = offsets;
    if (end > dataLength) throw problem.range(`tensor '${name}': data_offsets [${begin}, ${end}] run past the end of the data (${dataLength} bytes; truncated?)`);
    const needed = count * DTYPES[dtype].size;
    if (end - begin !== needed) throw problem.range(`tensor '${name}': shape ${formatShape(entry.shape)} of ${entry.dtype} needs ${needed} bytes, data_offsets [${begin}, ${end}] hold ${end - begin}`);
    spans.push({ name, begin, end });
    defineEntry(tensors, name, { data: decode(bytes, dataStart + begin, count, dtype, true), shape: [...entry.shape], dtype });
  }
  // The tensors tile the data: sorted by begin, each starts where the previous one ended.
  spans.sort((a, b) => a.begin - b.begin || a.end - b.end);
  let covered = 0;
  let previous = null;
  for (const span of spans) {
    if (span.begin < covered) throw problem.range(`tensors '${previous.name}' and '${span.name}' overlap (bytes ${span.begin}..${covered})`);
    if (span.begin > covered) throw problem.range(`bytes ${covered}..${span.begin} of the data belong to no tensor (a hole)`);
    covered = span.end;
    previous = span;
  }
  if (covered !== dataLength) throw problem.range(`${dataLength - covered} bytes after the last tensor belong to no tensor`);
  const tokens = metadata && Object.hasOwn(metadata, 'tokens') ? metadataTokens(metadata.tokens, problem) : undefined;
  return { tensors, tokens, metadata };
}
