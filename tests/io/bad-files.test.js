// Every bad-file class of make_fixtures.py gets its error class and a message naming the file and
// the problem; hostile options and inputs are refused the same way; the readers keep working after.
import { describe, expect, it } from 'vitest';
import { readTensors, writeNpy, writeSafetensors } from '../../web/io/index.js';
import { fixture, manifest } from './fixtures.js';

const errorClass = { TypeError, RangeError };

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a result');
}

describe('bad files are refused with a named error', () => {
  for (const [name, want] of Object.entries(manifest.errors)) {
    it(`readTensors(${name}) rejects with a ${want.error} saying "${want.message}"`, async () => {
      const error = await rejection(readTensors(fixture(name), { name }));
      expect(error).toBeInstanceOf(errorClass[want.error]);
      expect(error.message).toContain(`readTensors(${name}): `);
      expect(error.message).toContain(want.message);
    });
  }

  it('readTensors still reads a good file after every bad one', async () => {
    for (const name of Object.keys(manifest.errors)) await rejection(readTensors(fixture(name), { name }));
    const { tensors } = await readTensors(fixture('float32_le.npy'), { name: 'float32_le.npy' });
    expect(tensors.float32_le.shape).toEqual([3, 4]);
  });

  it('readTensors refuses every truncation of a .npy, .npz and .safetensors, never returning a shorter tensor', async () => {
    for (const name of ['float32_le.npy', 'deflated.npz', 'every_dtype.safetensors']) {
      const bytes = fixture(name);
      for (let cut = 0; cut < bytes.length; cut += Math.max(1, Math.floor(bytes.length / 97))) {
        const error = await rejection(readTensors(bytes.subarray(0, cut), { name }));
        expect(error, `${name} cut at ${cut}`).toBeInstanceOf(Error);
        expect(error.constructor === TypeError || error.constructor === RangeError, `${name} cut at ${cut}: ${error.message}`).toBe(true);
        expect(error.message).toContain(`readTensors(${name})`);
      }
    }
  });

  it('readTensors refuses a deflated member whose data inflates past its declared size', async () => {
    const bytes = fixture('deflated.npz').slice();
    // Shrink every declared uncompressed size (local and central headers) by one byte.
    const view = new DataView(bytes.buffer);
    for (let at = 0; at + 46 < bytes.length; at++) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, view.getUint32(at + 24, true) - 1, true);
    }
    const error = await rejection(readTensors(bytes, { name: 'shrunk.npz' }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/inflates past its declared/);
  });

  /** deflated.npz with every central-directory uncompressed size set to `size`. */
  function claiming(size) {
    const bytes = fixture('deflated.npz').slice();
    const view = new DataView(bytes.buffer);
    for (let at = 0; at + 46 < bytes.length; at++) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
    }
    return bytes;
  }

  it('readTensors refuses a member that claims 1.9 GB over a few hundred bytes before inflating it', async () => {
    const start = performance.now();
    const error = await rejection(readTensors(claiming(0x70000000), { name: 'claims.npz' }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/^readTensors\(claims\.npz\): member \w+\.npy declares 1879048192 bytes, more than its \d+ deflated bytes can hold \(at most 1032 times as many\)$/);
    expect(performance.now() - start).toBeLessThan(1000); // refused from the central directory alone
  });

  it('readTensors refuses a member that claims more than it inflates to, within what deflate could give', async () => {
    // deflated.npz's members are over 70 compressed bytes: 70,000 is a claim deflate could meet.
    const error = await rejection(readTensors(claiming(70_000), { name: 'claims.npz' }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/^readTensors\(claims\.npz\): member \w+\.npy inflates to \d+ bytes, its header says 70000$/);
  });

  it('readTensors names unknown files and refuses bytes that are not bytes', async () => {
    const error = await rejection(readTensors(new Uint8Array([1, 2, 3, 4]), { name: 'x.dat' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('readTensors(x.dat): is not a .npy, .npz, .safetensors or JSON file (unknown name and magic bytes)');
    for (const input of [null, undefined, 'a.npy', [1, 2], { length: 3 }]) {
      const e = await rejection(readTensors(input));
      expect(e).toBeInstanceOf(TypeError);
      expect(e.message).toMatch(/^readTensors: bytes must be/);
    }
  });
});

describe('hostile options', () => {
  const bytes = () => fixture('float32_le.npy');

  it('readTensors refuses a getter in options without calling it', async () => {
    let called = false;
    const options = {};
    Object.defineProperty(options, 'name', { enumerable: true, get: () => ((called = true), 'x.npy') });
    const error = await rejection(readTensors(bytes(), options));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('readTensors: options.name must be a plain value, not a getter');
    expect(called).toBe(false);
  });

  it('readTensors ignores a polluted Object.prototype', async () => {
    Object.prototype.format = 'json';
    Object.prototype.name = 'evil.json';
    try {
      const { tensors } = await readTensors(bytes(), {});
      expect(Object.keys(tensors)).toEqual(['array']);
    } finally {
      delete Object.prototype.format;
      delete Object.prototype.name;
    }
  });

  it('readTensors refuses unknown options, unknown formats and non-string names', async () => {
    const cases = [
      [{ fromat: 'npy' }, "readTensors: unknown option 'fromat' (known: name, format, maxBytes)"],
      [{ format: 'pickle' }, 'readTensors: options.format must be one of npy, npz, safetensors, json, got "pickle"'],
      [{ name: 42 }, 'readTensors: options.name must be a string, got number'],
      [null, 'readTensors: options must be an object { name?, format?, maxBytes? }, got null'],
    ];
    for (const [options, message] of cases) {
      const error = await rejection(readTensors(bytes(), options));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe(message);
    }
  });

  it('readTensors refuses a Proxy whose traps throw, with the trap\'s error, and keeps working', async () => {
    const options = new Proxy({}, { ownKeys: () => { throw new TypeError('trap'); } });
    expect((await rejection(readTensors(bytes(), options))).message).toBe('trap');
    expect((await readTensors(bytes(), { name: 'ok.npy' })).tensors.ok.shape).toEqual([3, 4]);
  });

  it('writers refuse getters, bad metadata and non-tensors with named TypeErrors', () => {
    const getter = {};
    Object.defineProperty(getter, 'a', { enumerable: true, get: () => [1] });
    expect(() => writeSafetensors(getter)).toThrow(new TypeError('writeSafetensors: tensors.a must be a plain value, not a getter'));
    expect(() => writeSafetensors({ a: [1] }, { n: 3 })).toThrow(new TypeError('writeSafetensors: metadata.n must be a string, got number'));
    expect(() => writeSafetensors({ a: [[1, 2], [3]] })).toThrow(RangeError);
    expect(() => writeSafetensors([1, 2])).toThrow(TypeError);
    expect(() => writeNpy({ data: [1, 2, 3], shape: [2, 2] })).toThrow(RangeError);
    expect(() => writeNpy('x')).toThrow(TypeError);
  });
});
