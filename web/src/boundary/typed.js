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

const detachedGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')?.get; // Node 22+, Chrome 114+

/**
 * True when a real typed array's buffer was detached (transferred by postMessage or
 * structuredClone): the engine then reads it as empty and refuses to copy it.
 */
export function isDetached(array) {
  if (lengthGetter.call(array) !== 0) return false; // a detached view always reads as empty
  const buffer = bufferGetter.call(array);
  if (detachedGetter !== undefined) {
    try {
      return detachedGetter.call(buffer);
    } catch {
      return false; // a SharedArrayBuffer, which cannot be detached
    }
  }
  try {
    new Uint8Array(buffer, 0, 0); // throws only for a detached buffer
    return false;
  } catch {
    return true;
  }
}

/** A Uint8Array over the same bytes, made here (so its own properties are the engine's). */
export function bytesOf(array) {
  return new Uint8Array(bufferGetter.call(array), byteOffsetGetter.call(array), byteLengthGetter.call(array));
}

const resizableGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable')?.get;
const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const intrinsicSlice = TypedArrayPrototype.slice;
const intrinsicSubarray = TypedArrayPrototype.subarray;
const intrinsicSet = TypedArrayPrototype.set;

/** A (non-shared) ArrayBuffer whose size is fixed: not resizable. */
function fixedArrayBuffer(buffer) {
  try {
    arrayBufferByteLength.call(buffer); // throws for a SharedArrayBuffer, whose contents other threads may change
    return resizableGetter === undefined || !resizableGetter.call(buffer);
  } catch {
    return false;
  }
}

/**
 * May `value` be used as is where an ArrayType is wanted? When it is a real ArrayType over an
 * ArrayBuffer of fixed size (a resizable one may change its length later; a SharedArrayBuffer its
 * contents after they were checked). Its own properties and prototype do not matter: this library
 * reads a shared array only by index, through the getters above, copyOf / subarrayOf and
 * TypedArray.prototype.set, which all go by its internal slots.
 */
export function sharedAs(value, ArrayType) {
  return typedKind(value) === ArrayType.name && fixedArrayBuffer(bufferGetter.call(value));
}

/**
 * A fresh copy of a real typed array, or of its [start, end) (its own `slice`, if any, is not
 * called: a Node Buffer's slice(), for one, returns a view).
 */
export function copyOf(array, start, end) {
  return intrinsicSlice.call(array, start, end);
}

/** array[start .. end) as a view (its own `subarray`, if any, is not called). */
export function subarrayOf(array, start, end) {
  return intrinsicSubarray.call(array, start, end);
}

/** Copies source into target from index 0 (target's own `set`, if any, is not called). */
export function setInto(target, source) {
  intrinsicSet.call(target, source);
}
