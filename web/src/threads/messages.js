// What crosses between the calling thread and a worker besides plain data: errors (as their
// constructor's name, message and apiMessage, so the caller gets the same TypeError or RangeError
// the synchronous API throws, sayable in the page's language) and the list of buffers to transfer
// instead of copy.

import { isDetached, typedKind } from '../boundary/typed.js';
import { withApiMessage } from '../boundary/api-message.js';

const ERROR_TYPES = { TypeError, RangeError, Error };

/** An Error -> { name, message, apiMessage? } (structured clone would drop the subclass in some engines). */
export function errorToMessage(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const sent = { name: error.name, message: error.message };
  if (error.apiMessage) sent.apiMessage = error.apiMessage; // plain data: a code and its params
  return sent;
}

/** { name, message, apiMessage? } -> the same kind of error on this side. */
export function errorFromMessage({ name, message, apiMessage }) {
  const ErrorType = Object.hasOwn(ERROR_TYPES, name) ? ERROR_TYPES[name] : Error;
  const error = new ErrorType(message);
  return apiMessage ? withApiMessage(error, apiMessage.code, apiMessage.params) : error;
}

/**
 * True when a structured clone of `value` keeps everything the API reads from it: primitives,
 * typed arrays, arrays and plain objects (prototype Object.prototype or null) of data properties
 * only. A class instance with getters or any other accessor clones as an object without them
 * (a tensor { get data(), get shape() } arrives as {}), so such arguments must not cross; nor
 * can a typed array whose buffer was detached (it is checked where it is read, and named).
 */
export function clonesWhole(value, seen = new Set()) {
  if (value === null || typeof value !== 'object') return typeof value !== 'function';
  if (typedKind(value) !== undefined) return !isDetached(value); // a detached one cannot be sent (DataCloneError)
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || seen.has(value)) return true;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  for (const d of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in d) || !clonesWhole(d.value, seen)) return false;
  }
  return true;
}

/**
 * Every ArrayBuffer in `value`, and those of its typed arrays (plain objects and arrays, walked
 * deeply), each once. Only for values this library created: transferring detaches the buffers.
 */
export function transferablesOf(value) {
  const found = new Set();
  collectBuffers(value, found);
  return [...found];
}

function collectBuffers(value, found) {
  if (value instanceof ArrayBuffer) {
    found.add(value);
  } else if (ArrayBuffer.isView(value)) {
    // A view into a larger (or shared) buffer would take all of it along: those are cloned instead.
    const whole = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
    if (whole && value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) collectBuffers(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) collectBuffers(value[key], found);
  }
}
