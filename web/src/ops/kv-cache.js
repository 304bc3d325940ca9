// The KV cache of an attention layer (issue 12): the keys and values (after the projections and
// any rotary positions) of every row a layer has seen, so that a decoder feeds its next rows alone
// and they attend to the whole sequence without recomputing it.
//   k (B, Hkv, capacity, d_q), v (B, Hkv, capacity, d_v): rows 0 .. length - 1 hold data.
// The rows live in wasm memory between calls (two allocations of the module that made them): the
// core appends a call's new rows in place and attends to them there, so a decode step copies
// neither the cache in nor out. The capacity starts small and doubles when rows would not fit (one
// copy inside wasm memory); past maxLength a RangeError says so.
// Rows enter only through layerForwardCached from a checked x, and each call's new rows are checked
// finite before the length counts them (layers.js), so the held rows are never scanned again.
// A cache belongs to the layer that made it (its owner below), to the batch size of its first use
// and to the layer's weights at its first row: after setParameters() or step() it refuses to go on
// (its rows hold the old weights' k and v). Its memory is freed by cache.dispose() or the layer's
// dispose(), at once; a cache dropped without either is freed only when the garbage collector
// finalizes it, and FinalizationRegistry callbacks run as tasks of their own, so a loop that never
// yields to the event loop would otherwise hold every cache it made. After a trap replaced the
// module, the rows are gone and the cache says so.

import { outOfMemoryError, recordHolding, releaseHolding } from '../boundary/memory.js';
import { expectKnownOptions } from '../boundary/validate.js';

const DEFAULT_CAPACITY = 16;
const DEFAULT_MAX_LENGTH = 2 ** 20;
const STATES = new WeakMap(); // cache object -> its state: the object users hold has only getters

const isLength = (x) => Number.isSafeInteger(x) && x >= 1;

// Frees a dropped cache's rows (state: the cache's state, which never refers to the cache object).
const FREED = new FinalizationRegistry((state) => disposeState(state, 'garbage collection'));

/**
 * What a layer shares with its caches: its weights' version (one more after every setParameters()
 * or step(), changedBy naming the last) and the states of its live caches, which its dispose() frees.
 */
export function cacheOwner() {
  return { version: 0, changedBy: '', caches: new Set() };
}

/** The owner's weights changed (by 'setParameters()' or 'step()'): caches holding rows refuse to go on. */
export function weightsChanged(owner, by) {
  owner.version += 1;
  owner.changedBy = by;
}

/** Frees every live cache of `owner` now (its layer was disposed). */
export function disposeCaches(owner) {
  for (const state of owner.caches) disposeState(state, 'its layer was disposed');
}

function freeRows(held) {
  if (held.module === null) return;
  releaseHolding(held.module, held);
  try {
    held.module._free(held.k);
    held.module._free(held.v);
  } catch {
    // a module that trapped since: its memory is discarded with it
  }
  held.module = null;
}

/** Frees the rows of the cache of `state` and marks it disposed (`by` says how); idempotent. */
function disposeState(state, by) {
  if (state.disposedBy !== null) return;
  freeRows(state.held);
  Object.assign(state, { disposedBy: by, length: 0, capacity: 0 });
  state.layer.caches.delete(state);
  FREED.unregister(state);
}

/** A new, empty cache of `layer` (a cacheOwner()), for kv heads of widths dQ and dV. */
export function createCache(fn, layer, { kvHeads, dQ, dV }, options) {
  const given = expectKnownOptions(fn, options, ['maxLength']); // own properties only
  const maxLength = given.maxLength ?? DEFAULT_MAX_LENGTH;
  if (!isLength(maxLength)) throw new RangeError(`${fn}: maxLength must be an integer >= 1, got ${String(maxLength)}`);
  // The wasm allocations (byte addresses), also the module's ledger entry (boundary/memory.js).
  const held = { module: null, k: 0, v: 0, bytes: 0, owner: layer };
  const state = { layer, kvHeads, dQ, dV, B: 0, length: 0, capacity: 0, maxLength, held, allocatedB: 0, version: 0, disposedBy: null };
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
    /** Frees the rows now; later use of the cache throws. Idempotent. */
    dispose() {
      disposeState(state, 'dispose()');
    },
  });
  STATES.set(cache, state);
  layer.caches.add(state);
  FREED.register(cache, state, state);
  return cache;
}

/**
 * The state of `cache`, checked: made by `layer`, not disposed, and, once it holds rows, for batch
 * size B and the layer's weights of its first row.
 */
export function cacheState(fn, cache, layer, B) {
  const state = typeof cache === 'object' && cache !== null ? STATES.get(cache) : undefined;
  if (state === undefined) throw new TypeError(`${fn}: cache must be an object from layer.createCache(), got ${typeof cache}`);
  if (state.layer !== layer) throw new TypeError(`${fn}: cache was made by another layer (use this layer's createCache())`);
  if (state.disposedBy !== null) {
    const how = state.disposedBy === 'dispose()' ? 'by its dispose()' : `because ${state.disposedBy}`;
    throw new Error(`${fn}: this cache was disposed ${how}; make a new one with createCache()`);
  }
  if (state.length > 0 && state.version !== layer.version) {
    throw new RangeError(
      `${fn}: its ${state.length} rows hold k and v of the layer's earlier weights (${layer.changedBy} changed them since); ` +
        'make a fresh cache with createCache() and feed the sequence again (dispose() this one)',
    );
  }
  if (state.length > 0 && state.B !== B) {
    throw new RangeError(`${fn}: cache holds a batch of B = ${state.B}, got x with B = ${B}`);
  }
  return state;
}

/**
 * Makes room in `module`'s memory for `rows` more rows (doubling; a RangeError past maxLength or
 * when memory cannot grow) and returns the cache's { k, v, capacity } there. Nothing the cache
 * holds changes when it throws.
 */
export function reserveRows(fn, module, state, B, rows) {
  const needed = state.length + rows;
  if (needed > state.maxLength) {
    throw new RangeError(`${fn}: cache would hold ${needed} rows, more than its maxLength ${state.maxLength} (holds ${state.length}, adding ${rows})`);
  }
  const { held } = state;
  if (held.module !== null && held.module !== module) {
    if (state.length > 0) {
      throw new Error(`${fn}: cache lost its rows when the wasm module trapped and was reset; make a new one with createCache()`);
    }
    freeRows(held); // nothing held: start over in the new module
  }
  if (held.module === null || needed > state.capacity || state.allocatedB !== B) grow(fn, module, state, B, needed);
  return { k: held.k, v: held.v, capacity: state.capacity };
}

/** New buffers of a doubled capacity >= needed, the held rows copied over inside wasm memory. */
function grow(fn, module, state, B, needed) {
  let capacity = Math.max(state.capacity, DEFAULT_CAPACITY);
  while (capacity < needed) capacity *= 2;
  capacity = Math.min(capacity, state.maxLength);
  const heads = B * state.kvHeads; // B === state.B when rows are held (cacheState)
  const bytes = (width) => heads * capacity * width * 4;
  const k = module._malloc(bytes(state.dQ)) >>> 0;
  const v = k === 0 ? 0 : module._malloc(bytes(state.dV)) >>> 0;
  if (v === 0) {
    if (k !== 0) module._free(k);
    throw outOfMemoryError(module, `${fn} of ${capacity} rows`, bytes(state.dQ) + bytes(state.dV));
  }
  const { held } = state;
  if (held.module !== null) {
    // module.HEAPF32 after the mallocs: they may have grown memory and replaced the view.
    const heap = module.HEAPF32;
    const copy = (from, to, width) => {
      for (let bh = 0; bh < heads; bh++) {
        const start = (from >>> 2) + bh * state.capacity * width;
        heap.copyWithin((to >>> 2) + bh * capacity * width, start, start + state.length * width);
      }
    };
    copy(held.k, k, state.dQ);
    copy(held.v, v, state.dV);
    freeRows(held);
  }
  Object.assign(held, { module, k, v, bytes: bytes(state.dQ) + bytes(state.dV) });
  recordHolding(module, held);
  state.capacity = capacity;
  state.allocatedB = B;
}

/** Counts `rows` more rows, written by the core at rows length .. length + rows - 1 (batch B). */
export function commitRows(state, B, rows) {
  if (state.length === 0) Object.assign(state, { B, version: state.layer.version });
  state.length += rows;
}

/**
 * The rows length .. length + rows - 1 of k and v as views of wasm memory, one per kv head:
 * -> [{ k, v }] (valid until the next call into the module).
 */
export function pendingRows(module, state, B, rows) {
  const { held, dQ, dV, capacity, length } = state;
  const heap = module.HEAPF32;
  const views = [];
  for (let bh = 0; bh < B * state.kvHeads; bh++) {
    const row = bh * capacity + length;
    views.push({
      k: heap.subarray((held.k >>> 2) + row * dQ, (held.k >>> 2) + (row + rows) * dQ),
      v: heap.subarray((held.v >>> 2) + row * dV, (held.v >>> 2) + (row + rows) * dV),
    });
  }
  return views;
}
