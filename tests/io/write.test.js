// writeNpy and writeSafetensors: what they write reads back bit for bit (NaN payloads, -0,
// subnormals included), and writeNpy writes numpy.save's exact bytes for a float32 array.
import { describe, expect, it } from 'vitest';
import { readTensors, writeNpy, writeSafetensors } from '../../web/io/index.js';
import { firstBitDifference, fixture, manifest } from './fixtures.js';

// Bits no arithmetic produces: a NaN with a payload, -0, the smallest subnormal, -Infinity.
const awkward = new Float32Array(new Uint32Array([0x7fc00123, 0x80000000, 0x00000001, 0xff800000, 0x3eaaaaab, 0x7f7fffff]).buffer);

describe('writers round-trip through readTensors', () => {
  it('writeNpy writes the bytes numpy.save writes for a float32 array', async () => {
    const name = Object.keys(manifest.files).find((n) => manifest.files[n].writeNpyMatches);
    const saved = fixture(name);
    const { tensors } = await readTensors(saved, { name });
    expect(writeNpy(tensors[name.slice(0, -4)])).toEqual(saved);
  });

  it('writeNpy then readTensors gives the same float32 bits for every shape rank 0 to 4', async () => {
    for (const shape of [[], [6], [2, 3], [3, 1, 2], [1, 2, 3, 1], [0, 4]]) {
      const n = shape.reduce((a, b) => a * b, 1);
      const data = Float32Array.from({ length: n }, (_, i) => awkward[i % awkward.length]);
      const back = (await readTensors(writeNpy({ data, shape }), { name: 't.npy' })).tensors.t;
      expect(back.shape).toEqual(shape);
      expect(back.dtype).toBe('float32');
      expect(firstBitDifference(back.data, data), `shape [${shape}]`).toBe(-1);
    }
  });

  it("writeNpy writes a version 2.0 header once the header outgrows version 1.0's 65535 bytes", async () => {
    // NumPy stops at 32 axes; only a shape this long reaches the limit, so it stands in for it.
    const shape = Array.from({ length: 25000 }, () => 1);
    const bytes = writeNpy({ data: new Float32Array([0.5]), shape });
    expect(bytes[6]).toBe(2);
    const length = new DataView(bytes.buffer).getUint32(8, true);
    expect((12 + length) % 64).toBe(0);
    const back = (await readTensors(bytes, { name: 'long.npy' })).tensors.long;
    expect(back.shape).toEqual(shape);
    expect(back.data).toEqual(new Float32Array([0.5]));
    expect(writeNpy({ data: new Float32Array([0.5]), shape: [1] })[6]).toBe(1);
  });

  it('writeSafetensors then readTensors gives every tensor, the tokens and the metadata back', async () => {
    const every = await readTensors(fixture('every_dtype.safetensors'), { name: 'every_dtype.safetensors' });
    const tensors = { ...every.tensors, awkward: { data: awkward, shape: [2, 3] }, __proto__x: [[1, 2]] };
    const tokens = ['[CLS]', 'a "quoted" token', 'é', '[SEP]'];
    const bytes = writeSafetensors(tensors, { tokens, source: 'test' });
    expect(new DataView(bytes.buffer).getUint32(0, true) % 8).toBe(0);
    const back = await readTensors(bytes, { name: 'back.safetensors' });
    expect(Object.keys(back.tensors).sort()).toEqual(Object.keys(tensors).sort());
    for (const [key, t] of Object.entries(tensors)) {
      const want = t.data ?? new Float32Array(t.flat());
      expect(firstBitDifference(back.tensors[key].data, want), key).toBe(-1);
      expect(back.tensors[key].dtype).toBe('float32');
    }
    expect(back.tokens).toEqual(tokens);
    expect(back.metadata).toEqual({ tokens: JSON.stringify(tokens), source: 'test' });
  });

  it('writeSafetensors keeps a tensor named __proto__ as a tensor', async () => {
    const tensors = {};
    Object.defineProperty(tensors, '__proto__', { value: [1, 2], enumerable: true });
    const back = await readTensors(writeSafetensors(tensors), { name: 'p.safetensors' });
    expect(Object.getPrototypeOf(back.tensors)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(back.tensors, '__proto__').value.shape).toEqual([2]);
  });
});
