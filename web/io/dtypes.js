// Element types of tensor files and their decoding into float32 (the page's one number type).
// Each dtype: bytes per element and the typed array that reads its little-endian bytes; float16
// and bfloat16 (no typed array in every engine) are decoded from their bits; bool bytes are 0 or 1.
// int64 and uint64 values beyond 2**24 round to the nearest float32, as any float32 view must.
import { copyOf } from '../src/boundary/typed.js';

export const DTYPES = {
  float16: { size: 2, Array: Uint16Array },
  bfloat16: { size: 2, Array: Uint16Array },
  float32: { size: 4, Array: Float32Array },
  float64: { size: 8, Array: Float64Array },
  int8: { size: 1, Array: Int8Array },
  int16: { size: 2, Array: Int16Array },
  int32: { size: 4, Array: Int32Array },
  int64: { size: 8, Array: BigInt64Array },
  uint8: { size: 1, Array: Uint8Array },
  uint16: { size: 2, Array: Uint16Array },
  uint32: { size: 4, Array: Uint32Array },
  uint64: { size: 8, Array: BigUint64Array },
  bool: { size: 1, Array: Uint8Array },
};

/** IEEE binary16 bits -> its value (exact in float32: every float16 is a float32). */
export function float16Value(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24; // zero and subnormals
  if (exponent === 0x1f) return mantissa ? NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/**
 * `count` elements of `dtype` at bytes[offset..] -> a fresh Float32Array. The bytes are copied
 * first (any alignment, the caller's buffer untouched), swapped in place when big-endian, then
 * read through the dtype's typed array: float32 keeps its exact bits, NaN payloads included.
 */
export function decode(bytes, offset, count, dtype, littleEndian) {
  const { size, Array: View } = DTYPES[dtype];
  // A real copy (copyOf never calls the caller's slice: a Node Buffer's is a view, which would read
  // from the start of its pool and swap the caller's bytes in place).
  const copy = copyOf(bytes, offset, offset + count * size);
  if (!littleEndian && size > 1) {
    for (let i = 0; i < copy.length; i += size) copy.subarray(i, i + size).reverse();
  }
  const raw = new View(copy.buffer, 0, count);
  if (dtype === 'float32') return raw;
  const out = new Float32Array(count);
  if (dtype === 'float16') {
    for (let i = 0; i < count; i++) out[i] = float16Value(raw[i]);
  } else if (dtype === 'bfloat16') {
    // bfloat16 is the top half of a float32: shift its bits up and read them as one.
    const bits = new Uint32Array(out.buffer);
    for (let i = 0; i < count; i++) bits[i] = raw[i] << 16;
  } else if (dtype === 'bool') {
    for (let i = 0; i < count; i++) out[i] = raw[i] ? 1 : 0;
  } else if (View === BigInt64Array || View === BigUint64Array) {
    for (let i = 0; i < count; i++) out[i] = Number(raw[i]);
  } else {
    out.set(raw);
  }
  return out;
}
