// Typed arrays as the engine sees them, whatever their own properties or prototype say. A caller's
// Float32Array may carry an own `length` that lies, a Proxy may pass `instanceof`, and a view over
// a resizable or detached buffer may change its length between two reads. The getters of
// %TypedArray%.prototype read the internal slots, so these answers cannot be forged.

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (name) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, name).get;
const nameGetter = getter(Symbol.toStringTag);
const lengthGetter = getter('length');
const byteLengthGetter = getter('byteLength');
const byteOffsetGetter = getter('byteOffset');
const bufferGetter = getter('buffer');

/** 'Float32Array', 'Uint8Array', ... for a real typed array; undefined for anything else (Proxies included). */
export function typedKind(value) {
  return nameGetter.call(value);
}

/** The element count of a real typed array (0 once its buffer is detached). */
export function typedLength(array) {
  return lengthGetter.call(array);
}

/** The byte count of a real typed array (0 once its buffer is detached). */
export function typedByteLength(array) {
  return byteLengthGetter.call(array);
}

/** A Uint8Array over the same bytes, made here (so its own properties are the engine's). */
export function bytesOf(array) {
  return new Uint8Array(bufferGetter.call(array), byteOffsetGetter.call(array), byteLengthGetter.call(array));
}

const resizableGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable')?.get;

/**
 * May `value` be used as is where an ArrayType is wanted? Only a real ArrayType with its own
 * prototype, none of the properties this library reads redefined on it, over an ArrayBuffer of
 * fixed size (a resizable one, or a growable SharedArrayBuffer, can change its length later).
 */
export function sharedAs(value, ArrayType) {
  if (typedKind(value) !== ArrayType.name || Object.getPrototypeOf(value) !== ArrayType.prototype) return false;
  for (const name of READ_PROPERTIES) if (Object.hasOwn(value, name)) return false;
  const buffer = bufferGetter.call(value);
  return buffer instanceof ArrayBuffer && Object.getPrototypeOf(buffer) === ArrayBuffer.prototype && !resizableGetter?.call(buffer);
}
const READ_PROPERTIES = ['length', 'byteLength', 'byteOffset', 'buffer', 'slice', 'subarray', 'set', 'constructor'];
