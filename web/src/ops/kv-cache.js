// The KV cache of an attention layer (issue 12): the keys and values (after the projections and
// any rotary positions) of every row a layer has seen, so that a decoder feeds its next rows alone
// and they attend to the whole sequence without recomputing it.
//   k (B, Hkv, capacity, d_q), v (B, Hkv, capacity, d_v): rows 0 .. length - 1 hold data.
// The capacity starts small and doubles when rows would not fit; past maxLength a RangeError says so.
// A cache belongs to the layer that made it and to the batch size of its first use.

import { expectKnownOptions } from '../boundary/validate.js';

const DEFAULT_CAPACITY = 16;
const DEFAULT_MAX_LENGTH = 2 ** 20;
const STATES = new WeakMap(); // cache object -> its state: the object users hold has only getters

const isLength = (x) => Number.isSafeInteger(x) && x >= 1;

/** A new, empty cache of `layer` (an identity), for kv heads of widths dQ and dV. */
export function createCache(fn, layer, { kvHeads, dQ, dV }, options) {
  const given = expectKnownOptions(fn, options, ['maxLength']); // own properties only
  const maxLength = given.maxLength ?? DEFAULT_MAX_LENGTH;
  if (!isLength(maxLength)) throw new RangeError(`${fn}: maxLength must be an integer >= 1, got ${String(maxLength)}`);
  const state = { layer, kvHeads, dQ, dV, B: 0, length: 0, capacity: 0, maxLength, k: null, v: null };
  const cache = Object.freeze({
    /** Rows held. */
    get length() {
      return state.length;
    },
    /** Rows the current buffers can hold before they double. */
    get capacity() {
      return state.capacity;
    },
    get maxLength() {
      return state.maxLength;
    },
  });
  STATES.set(cache, state);
  return cache;
}

/** The state of `cache`, checked: made by `layer`, and for batch size B once it holds rows. */
export function cacheState(fn, cache, layer, B) {
  const state = typeof cache === 'object' && cache !== null ? STATES.get(cache) : undefined;
  if (state === undefined) throw new TypeError(`${fn}: cache must be an object from layer.createCache(), got ${typeof cache}`);
  if (state.layer !== layer) throw new TypeError(`${fn}: cache was made by another layer (use this layer's createCache())`);
  if (state.length > 0 && state.B !== B) {
    throw new RangeError(`${fn}: cache holds a batch of B = ${state.B}, got x with B = ${B}`);
  }
  return state;
}

/** Grows the buffers so `rows` more fit (doubling); a RangeError past maxLength. */
export function reserveRows(fn, state, B, rows) {
  const needed = state.length + rows;
  if (needed > state.maxLength) {
    throw new RangeError(
      `${fn}: cache would hold ${needed} rows, more than its maxLength ${state.maxLength} (holds ${state.length}, adding ${rows})`,
    );
  }
  if (state.length === 0) state.B = B;
  if (needed <= state.capacity) return;
  let capacity = Math.max(state.capacity, DEFAULT_CAPACITY);
  while (capacity < needed) capacity *= 2;
  capacity = Math.min(capacity, state.maxLength);
  const grow = (old, width) => {
    const next = new Float32Array(B * state.kvHeads * capacity * width);
    for (let bh = 0; bh < B * state.kvHeads && old !== null; bh++) {
      next.set(old.subarray(bh * state.capacity * width, (bh * state.capacity + state.length) * width), bh * capacity * width);
    }
    return next;
  };
  state.k = grow(state.k, state.dQ);
  state.v = grow(state.v, state.dV);
  state.capacity = capacity;
}

/** Appends k (B, Hkv, rows, dQ) and v (B, Hkv, rows, dV) after the rows held (reserveRows first). */
export function appendRows(state, k, v, rows) {
  for (let bh = 0; bh < state.B * state.kvHeads; bh++) {
    state.k.set(k.subarray(bh * rows * state.dQ, (bh + 1) * rows * state.dQ), (bh * state.capacity + state.length) * state.dQ);
    state.v.set(v.subarray(bh * rows * state.dV, (bh + 1) * rows * state.dV), (bh * state.capacity + state.length) * state.dV);
  }
  state.length += rows;
}

/** The rows held as dense tensors: k (B, Hkv, length, dQ), v (B, Hkv, length, dV). */
export function heldRows(state) {
  const dense = (buffer, width) => {
    const out = new Float32Array(state.B * state.kvHeads * state.length * width);
    for (let bh = 0; bh < state.B * state.kvHeads; bh++) {
      out.set(buffer.subarray(bh * state.capacity * width, (bh * state.capacity + state.length) * width), bh * state.length * width);
    }
    return { data: out, shape: [state.B, state.kvHeads, state.length, width] };
  };
  return { k: dense(state.k, state.dQ), v: dense(state.v, state.dV) };
}
