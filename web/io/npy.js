// .npy (NumPy's format, versions 1.0, 2.0 and 3.0): the magic "\x93NUMPY", a version, the header
// length (2 bytes in version 1, 4 after), a header that is a Python dict literal
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// and the raw elements. The header is parsed as data by a small literal reader here, never
// evaluated; object arrays ('O', pickles) are refused, strings ('U') are read only as tokens.
import { DTYPES, decode } from './dtypes.js';
import { HEADER_LIMIT, elementCount, formatShape } from './fail.js';

export const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

const KINDS = { f: 'float', i: 'int', u: 'uint' };
const MAX_DEPTH = 4; // a dict holding a tuple: anything deeper is not a .npy header

/** The Python literal `text` (strings, ints, True/False/None, tuples, lists, dicts) -> JS values. */
function parseLiteral(text, problem) {
  let at = 0;
  const fail = (what) => problem.type(`header is not a NumPy header (${what} at character ${at}): ${JSON.stringify(text.slice(0, 200))}`);
  const space = () => {
    while (at < text.length && /\s/.test(text[at])) at++;
  };
  const value = (depth) => {
    if (depth > MAX_DEPTH) throw fail('nested too deep');
    space();
    const c = text[at];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, at + 1);
      if (end < 0) throw fail('an unterminated string');
      const s = text.slice(at + 1, end);
      at = end + 1;
      return s;
    }
    if (c === '(' || c === '[') return sequence(c === '(' ? ')' : ']', depth);
    if (c === '{') return dict(depth);
    const word = /^(True|False|None|-?\d+)/.exec(text.slice(at, at + 24));
    if (!word) throw fail('an unexpected character');
    at += word[0].length;
    if (word[0] === 'True') return true;
    if (word[0] === 'False') return false;
    if (word[0] === 'None') return null;
    return Number(word[0]);
  };
  const sequence = (close, depth) => {
    at++;
    const items = [];
    for (;;) {
      space();
      if (text[at] === close) return (at++, items);
      items.push(value(depth + 1));
      space();
      if (text[at] === ',') at++;
      else if (text[at] !== close) throw fail(`a missing '${close}'`);
    }
  };
  const dict = (depth) => {
    at++;
    const entries = new Map();
    for (;;) {
      space();
      if (text[at] === '}') return (at++, entries);
      const key = value(depth + 1);
      space();
      if (text[at++] !== ':') throw fail("a missing ':'");
      entries.set(key, value(depth + 1));
      space();
      if (text[at] === ',') at++;
      else if (text[at] !== '}') throw fail("a missing '}'");
    }
  };
  const result = value(0);
  space();
  if (at !== text.length) throw fail('text after the dict');
  return result;
}

/** A descr such as '<f4' -> { dtype, littleEndian } or { strings: chars } for '<U5'. */
function parseDescr(descr, problem) {
  if (Array.isArray(descr)) throw problem.type('structured arrays (a descr with fields) are not supported: save each field as its own array');
  if (typeof descr !== 'string') throw problem.type(`header descr must be a string such as '<f4', got ${typeof descr}`);
  const m = /^([<>|=]?)([a-zA-Z])(\d*)$/.exec(descr);
  if (m && m[2] === 'O') throw problem.type(`dtype '${descr}' is an object array (pickled Python objects): refused, never unpickled; save numbers instead`);
  if (m && m[2] === 'U' && m[3]) {
    const chars = Number(m[3]);
    if (!Number.isSafeInteger(chars) || chars < 1) throw problem.type(`dtype '${descr}' holds strings of ${m[3]} characters; a string dtype needs at least 1`);
    return { strings: chars, littleEndian: m[1] !== '>' };
  }
  const kind = m && (m[2] === 'b' && m[3] === '1' ? 'bool' : KINDS[m[2]] && `${KINDS[m[2]]}${8 * Number(m[3])}`);
  if (!kind || !(kind in DTYPES) || kind === 'bfloat16') {
    throw problem.type(`unknown dtype '${descr}' (supported: float16/32/64, int8..64, uint8..64, bool, in either byte order)`);
  }
  return { dtype: kind, littleEndian: m[1] !== '>' };
}

/** Fortran-order elements (first axis fastest) -> C order (last axis fastest). */
function toCOrder(data, shape) {
  const n = data.length;
  if (shape.length < 2 || n === 0) return data;
  const strides = shape.map((_, k) => shape.slice(k + 1).reduce((a, b) => a * b, 1));
  const index = new Array(shape.length).fill(0);
  const out = new Float32Array(n);
  let c = 0;
  for (let f = 0; f < n; f++) {
    out[c] = data[f];
    for (let k = 0; k < shape.length; k++) {
      if (++index[k] < shape[k]) {
        c += strides[k];
        break;
      }
      c -= strides[k] * (shape[k] - 1);
      index[k] = 0;
    }
  }
  return out;
}

/** Reads UTF-32 strings of `chars` code points each (NumPy's 'U' dtype), trailing NULs dropped. */
function decodeStrings(bytes, offset, count, chars, littleEndian) {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, count * chars * 4);
  const out = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let j = 0; j < chars; j++) {
      const code = view.getUint32((i * chars + j) * 4, littleEndian);
      if (code === 0) break;
      if (code > 0x10ffff) return null;
      s += String.fromCodePoint(code);
    }
    out.push(s);
  }
  return out;
}

/**
 * bytes of a .npy -> { data: Float32Array, shape, dtype } (C order), or { strings, shape } for a
 * 'U' array. `where` names the array in messages ('' for a file, 'member x.npy: ' in a .npz); its
 * float32 data (or its strings' bytes) is spent from `budget` before anything is decoded.
 */
export function parseNpy(bytes, problem, budget, where = '') {
  const at = (msg) => `${where}${msg}`;
  if (bytes.length < 10 || NPY_MAGIC.some((b, i) => bytes[i] !== b)) throw problem.type(at('is not a .npy file (no \\x93NUMPY magic)'));
  const major = bytes[6];
  if (major < 1 || major > 3) throw problem.type(at(`has .npy version ${major}.${bytes[7]}; versions 1, 2 and 3 are known`));
  const lengthBytes = major === 1 ? 2 : 4;
  const start = 8 + lengthBytes;
  if (bytes.length < start) throw problem.range(at('is truncated inside its header length'));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  if (headerLength > HEADER_LIMIT) throw problem.range(at(`header of ${headerLength} bytes is over the 100 MB limit`));
  if (start + headerLength > bytes.length) {
    throw problem.range(at(`header runs past the end (${headerLength} bytes from byte ${start}, the file has ${bytes.length})`));
  }
  let text;
  try {
    text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1', { fatal: true }).decode(bytes.subarray(start, start + headerLength));
  } catch {
    throw problem.type(at('header is not valid text'));
  }
  const header = parseLiteral(text.trimEnd(), problem);
  const keys = header instanceof Map ? [...header.keys()].sort().join(',') : '';
  if (keys !== 'descr,fortran_order,shape') throw problem.type(at("header must be a dict of exactly 'descr', 'fortran_order' and 'shape'"));
  const shape = header.get('shape');
  const fortran = header.get('fortran_order');
  if (!Array.isArray(shape)) throw problem.type(at('header shape must be a tuple of sizes'));
  if (typeof fortran !== 'boolean') throw problem.type(at('header fortran_order must be True or False'));
  const type = parseDescr(header.get('descr'), problem);
  const count = elementCount(shape, at('header'), problem);
  const size = type.strings ? 4 * type.strings : DTYPES[type.dtype].size;
  const available = bytes.length - start - headerLength;
  if (count * size !== available) {
    const name = type.strings ? `<U${type.strings}` : type.dtype;
    throw problem.range(
      at(
        `shape ${formatShape(shape)} of ${name} needs ${count * size} bytes of data, the file has ${available}${available < count * size ? ' (truncated)' : ''}`,
      ),
      'file-data-size',
      { shape: formatShape(shape), dtype: name, needs: count * size, has: available },
    );
  }
  budget.spend(type.strings ? count * size : count * 4, where ? where.slice(0, -2) : `shape ${formatShape(shape)}`);
  if (type.strings) {
    if (shape.length !== 1)
      throw problem.type(at(`holds strings (dtype <U${type.strings}) of shape ${formatShape(shape)}: only a 1-d list of tokens can be read`));
    const strings = decodeStrings(bytes, start + headerLength, count, type.strings, type.littleEndian);
    if (!strings) throw problem.type(at('holds strings with invalid code points'));
    return { strings, shape };
  }
  const data = decode(bytes, start + headerLength, count, type.dtype, type.littleEndian);
  return { data: fortran ? toCOrder(data, shape) : data, shape, dtype: type.dtype };
}
