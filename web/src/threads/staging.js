// Staging buffers: how a split call's slices travel to a worker and its results come back without
// allocating. The calling thread packs every input slice of a worker's sub-calls into one
// ArrayBuffer (with room for their outputs), transfers it, the worker copies the inputs into its
// wasm memory and the outputs back into the same buffer, and transfers it back; the caller reads
// the outputs and keeps the buffer for the next call. Allocating fresh arrays instead cost as much
// as the copies themselves (new pages), on the calling thread, outside the parallel part.

import { subarrayOf, typedKind, typedLength } from '../boundary/typed.js';

const TYPES = { f32: Float32Array, i32: Int32Array, u8: Uint8Array };
const ALIGN = 16; // bytes: keeps every view aligned for its element type

const KINDS = { Float32Array: 'f32', Int32Array: 'i32' };
const typeOf = (array) => KINDS[typedKind(array)] ?? 'u8';

/** A view of a packed place { offset (bytes), length (elements), type } in `buffer`. */
export function viewOf(buffer, { offset, length, type }) {
  return new TYPES[type](buffer, offset, length);
}

/** The places of one message's inputs and outputs in a staging buffer, and the copies that fill it. */
export class StagingLayout {
  constructor() {
    this.bytes = 0;
    this.copies = [];
  }

  reserve(bytes) {
    const offset = this.bytes;
    this.bytes += Math.ceil(bytes / ALIGN) * ALIGN;
    return offset;
  }

  /**
   * array[start .. start + length) as an input: -> its place. The array's real length is checked
   * (typed.js): a caller's buffer detached or shrunk since its check must not send a short slice.
   */
  input(array, start, length) {
    if (typedLength(array) < start + length) {
      throw new RangeError(
        `attention-lab: an input holds ${typedLength(array)} elements now, fewer than its shape needs (was its buffer detached or resized during the call?)`,
      );
    }
    const type = typeOf(array);
    const place = { offset: this.reserve(length * TYPES[type].BYTES_PER_ELEMENT), length, type };
    this.copies.push({ place, source: subarrayOf(array, start, start + length) });
    return place;
  }

  /** Room for `floats` results: -> its place. */
  output(floats) {
    return { offset: this.reserve(floats * 4), length: floats, type: 'f32' };
  }

  /** Copies every input into `buffer`. */
  fill(buffer) {
    for (const { place, source } of this.copies) viewOf(buffer, place).set(source);
  }
}

/**
 * Buffers handed back by workers, kept for the next calls: at most `keep` of them (the largest
 * win), so memory stays bounded by a few calls' slices.
 */
export class StagingBuffers {
  constructor(keep) {
    this.keep = keep;
    this.free = [];
  }

  /** An ArrayBuffer of at least `bytes`: the smallest free one that fits, or a new one. */
  take(bytes) {
    let best = -1;
    this.free.forEach((buffer, i) => {
      if (buffer.byteLength >= bytes && (best < 0 || buffer.byteLength < this.free[best].byteLength)) best = i;
    });
    if (best < 0) return new ArrayBuffer(bytes);
    return this.free.splice(best, 1)[0];
  }

  give(buffer) {
    if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return; // detached or lost
    this.free.push(buffer);
    if (this.free.length > this.keep) {
      this.free.sort((a, b) => b.byteLength - a.byteLength);
      this.free.length = this.keep;
    }
  }
}
