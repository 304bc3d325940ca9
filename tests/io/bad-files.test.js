// Every bad-file class of make_fixtures.py gets its error class and a message naming the file and
// the problem; hostile options and inputs are refused the same way; the readers keep working after.
import { describe, expect, it } from 'vitest';
import { readTensors, writeNpy, writeSafetensors } from '../../web/io/index.js';
import { npyHeader, safetensorsFile } from './bombs.js';
import { fixture, manifest } from './fixtures.js';
import { rejection } from '../js/support/thrown.js';

const errorClass = { TypeError, RangeError };

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
    expect(error.message).toMatch(
      /^readTensors\(claims\.npz\): member \w+\.npy declares 1879048192 bytes, more than its \d+ deflated bytes can hold \(at most 1032 times as many\)$/,
    );
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

  it("readTensors refuses a Proxy whose traps throw, with the trap's error, and keeps working", async () => {
    const options = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new TypeError('trap');
        },
      },
    );
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

// Issue 37, finding 6: values of the wrong JSON or Python type in a header (a list where a string
// belongs, a string where a number does, an inherited field) get a named error, never a crash of
// the reader or a silent reading.
describe('header fields of the wrong type are refused by name', () => {
  /** A .npy of `descr` and `shape` (a Python tuple literal) over `dataBytes` zero bytes. */
  const npy = (descr, shape, dataBytes) => {
    const header = npyHeader(0, descr);
    const text = new TextDecoder('latin1').decode(header.subarray(10)).replace('(0,)', shape);
    const out = new Uint8Array(10 + text.length + dataBytes);
    out.set(header.subarray(0, 8));
    new DataView(out.buffer).setUint16(8, text.length, true);
    for (let i = 0; i < text.length; i++) out[10 + i] = text.charCodeAt(i);
    return out;
  };
  /** A .safetensors of one tensor 't' described by `entry` over 4 bytes of data (plus `extra` header fields). */
  const oneTensor = (entry, extra = {}) => safetensorsFile({ ...extra, t: entry }, 4);
  const F32 = { dtype: 'F32', shape: [1], data_offsets: [0, 4] };

  it("a .npy of dtype '<U0' (strings of no characters) is a TypeError naming the dtype", async () => {
    for (const shape of ['(0,)', '(3,)']) {
      const error = await rejection(readTensors(npy('<U0', shape, 0), { name: 'u0.npy' }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe("readTensors(u0.npy): dtype '<U0' holds strings of 0 characters; a string dtype needs at least 1");
    }
    const huge = await rejection(readTensors(npy(`<U${'9'.repeat(30)}`, '(1,)', 4), { name: 'u.npy' }));
    expect(huge).toBeInstanceOf(TypeError);
    expect(huge.message).toMatch(/^readTensors\(u\.npy\): dtype '<U9+' holds strings of 9+ characters/);
  });

  it('a safetensors dtype that is not a string (["F32"], {"F32": 1}, 32) is a TypeError, never read as F32', async () => {
    for (const dtype of [['F32'], { F32: 1 }, 32, null]) {
      const error = await rejection(readTensors(oneTensor({ ...F32, dtype }), { name: 'd.safetensors' }));
      expect(error, JSON.stringify(dtype)).toBeInstanceOf(TypeError);
      expect(error.message).toBe(
        `readTensors(d.safetensors): tensor 't' has unknown dtype ${JSON.stringify(dtype)} (a string, one of F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8, BOOL)`,
      );
    }
  });

  it('a safetensors entry that is a list is a TypeError saying what an entry holds', async () => {
    const error = await rejection(readTensors(oneTensor(['F32', [1], [0, 4]]), { name: 'l.safetensors' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("readTensors(l.safetensors): tensor 't' must be an object with dtype, shape and data_offsets");
  });

  it('safetensors shapes that are not lists of whole numbers are refused', async () => {
    for (const shape of ['1', { 0: 1, length: 1 }, 1]) {
      const error = await rejection(readTensors(oneTensor({ ...F32, shape }), { name: 's.safetensors' }));
      expect(error, JSON.stringify(shape)).toBeInstanceOf(TypeError);
      expect(error.message).toBe(`readTensors(s.safetensors): tensor 't': shape must be a list of sizes, got ${JSON.stringify(shape)}`);
    }
    for (const shape of [['1'], [1.5], [true], [null], [-1]]) {
      const error = await rejection(readTensors(oneTensor({ ...F32, shape }), { name: 's.safetensors' }));
      expect(error, JSON.stringify(shape)).toBeInstanceOf(RangeError);
      expect(error.message).toMatch(/^readTensors\(s\.safetensors\): tensor 't': shape \[.*\] must hold non-negative integers$/);
    }
  });

  it('safetensors data_offsets that are not a pair of whole numbers are refused', async () => {
    for (const offsets of [['0', '4'], [0], [0, 4, 4], { 0: 0, 1: 4 }, [0, 4.5], [0, null], '0,4']) {
      const error = await rejection(readTensors(oneTensor({ ...F32, data_offsets: offsets }), { name: 'o.safetensors' }));
      expect(error, JSON.stringify(offsets)).toBeInstanceOf(RangeError);
      expect(error.message).toBe(
        `readTensors(o.safetensors): tensor 't': data_offsets must be [begin, end], two integers with 0 <= begin <= end, got ${JSON.stringify(offsets)}`,
      );
    }
  });

  it('__metadata__ values that are not strings, or a __metadata__ that is a list, are TypeErrors', async () => {
    for (const [metadata, message] of [
      [{ k: 1 }, '__metadata__.k must be a string, got number'],
      [{ k: ['a'] }, '__metadata__.k must be a string, got object'],
      [{ k: null }, '__metadata__.k must be a string, got null'],
      [['a'], '__metadata__ must be an object of strings'],
      ['a', '__metadata__ must be an object of strings'],
    ]) {
      const error = await rejection(readTensors(oneTensor(F32, { __metadata__: metadata }), { name: 'm.safetensors' }));
      expect(error, JSON.stringify(metadata)).toBeInstanceOf(TypeError);
      expect(error.message).toBe(`readTensors(m.safetensors): ${message}`);
    }
  });

  it('a safetensors entry missing its dtype is refused even when Object.prototype.dtype is set', async () => {
    Object.prototype.dtype = 'F32';
    try {
      const error = await rejection(readTensors(oneTensor({ shape: [1], data_offsets: [0, 4] }), { name: 'p.safetensors' }));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(/^readTensors\(p\.safetensors\): tensor 't' has unknown dtype undefined/);
    } finally {
      delete Object.prototype.dtype;
    }
  });
});
