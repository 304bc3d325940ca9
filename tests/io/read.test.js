// readTensors against files written by NumPy and by make_fixtures.py from the safetensors
// specification: every tensor's shape, dtype and float32 bits as NumPy's astype('<f4') gives them
// (NaN, infinities, -0, subnormals, integer extremes), the tokens and the metadata.
import { describe, expect, it } from 'vitest';
import { readTensors } from '../../web/io/index.js';
import { expectedData, firstBitDifference, fixture, manifest } from './fixtures.js';

describe('readTensors reads what NumPy and the safetensors layout wrote', () => {
  for (const [name, want] of Object.entries(manifest.files)) {
    it(`readTensors(${name}) gives every tensor's shape, dtype and float32 bits`, async () => {
      const got = await readTensors(fixture(name), { name });
      expect(Object.keys(got.tensors).sort()).toEqual(Object.keys(want.tensors).sort());
      for (const [key, entry] of Object.entries(want.tensors)) {
        const t = got.tensors[key];
        expect(t.shape, key).toEqual(entry.shape);
        expect(t.dtype, key).toBe(entry.dtype);
        expect(t.data).toBeInstanceOf(Float32Array);
        const wanted = expectedData(entry);
        const at = firstBitDifference(t.data, wanted);
        expect(at, `${key}[${at}]: got ${t.data[at]}, want ${wanted[at]}`).toBe(-1);
      }
      expect(got.tokens).toEqual(want.tokens);
      expect(got.metadata).toEqual(want.metadata);
    });
  }

  it('readTensors picks the format from the magic bytes when the file has no name', async () => {
    for (const name of ['float32_le.npy', 'deflated.npz', 'every_dtype.safetensors', 'object.json']) {
      const named = await readTensors(fixture(name), { name });
      const bare = await readTensors(fixture(name));
      expect(Object.keys(bare.tensors).sort(), name).toEqual(
        Object.keys(named.tensors)
          .map((k) => (name.endsWith('.npy') ? 'array' : k))
          .sort(),
      );
    }
  });

  it('readTensors lets format override the extension', async () => {
    const got = await readTensors(fixture('version2.npy'), { name: 'weights.bin.txt', format: 'npy' });
    expect(Object.keys(got.tensors)).toEqual(['weights.bin']);
  });

  it('readTensors accepts an ArrayBuffer, a view at an offset and a Blob, and leaves the bytes untouched', async () => {
    const bytes = fixture('float64_be.npy');
    const copy = bytes.slice();
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    const want = (await readTensors(bytes, { name: 'a.npy' })).tensors.a.data;
    for (const input of [bytes.buffer, new Uint8Array(padded.buffer, 3), new Blob([bytes])]) {
      expect(firstBitDifference((await readTensors(input, { name: 'a.npy' })).tensors.a.data, want)).toBe(-1);
    }
    expect(bytes).toEqual(copy);
  });
});
