// Node's Buffer is a Uint8Array whose slice() returns a view, not a copy (fs.readFile gives one).
// readTensors must read the numbers at the tensor's offset and leave the caller's bytes as they were.
import { describe, expect, it } from 'vitest';
import { readTensors } from '../../web/io/index.js';
import { expectedData, firstBitDifference, fixture, manifest } from './fixtures.js';

/** A Uint8Array whose slice() is a view, as Buffer's is (works in the browser project too). */
class ViewSlice extends Uint8Array {
  slice(start, end) {
    return this.subarray(start, end);
  }
}

describe('readTensors with bytes whose slice() is a view (a Node Buffer)', () => {
  for (const name of ['float32_le.npy', 'float64_be.npy', 'every_dtype.safetensors', 'stored.npz']) {
    it(`readTensors(${name}) as a Buffer-like view gives the same float32 bits and leaves the bytes untouched`, async () => {
      const plain = fixture(name);
      const bytes = new ViewSlice(plain.length);
      bytes.set(plain);
      const before = Uint8Array.from(bytes);
      const got = await readTensors(bytes, { name });
      for (const [key, entry] of Object.entries(manifest.files[name].tensors)) {
        const at = firstBitDifference(got.tensors[key].data, expectedData(entry));
        expect(at, `${key}[${at}]`).toBe(-1);
      }
      expect(
        bytes.every((b, i) => b === before[i]),
        "the caller's bytes are unchanged",
      ).toBe(true);
    });
  }
});
