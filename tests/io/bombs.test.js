// Issue 37, finding 2: file bombs. Each bomb is built in memory by bombs.js (a few hundred
// kilobytes that unpack to gigabytes) and must be refused from its headers alone: a RangeError
// naming the file, in under a second, without allocating what it declares. Before the fix the
// shared-member .npz took 154 s and 8.8 GiB, the 2 GiB member 73 s and 6.2 GiB, and 40 tensors
// over one safetensors region 14 s and 2.6 GiB (tests/io/measure-bombs.mjs).
import { describe, expect, it } from 'vitest';
import { readTensors } from '../../web/io/index.js';
import { rejection } from '../js/support/thrown.js';
import {
  hugeMemberNpz,
  lyingMemberNpz,
  nestedMemberNpz,
  npyHeader,
  safetensorsFile,
  sharedMemberNpz,
  sharedRegionSafetensors,
  zerosMember,
  zipArchive,
} from './bombs.js';

const MiB = 2 ** 20;
const SECOND = 1000;
// Node only: the process's peak RSS (KiB) is a high-water mark, so a bomb that allocated its
// gigabytes would raise it; Chromium has no such counter and checks the time alone.
const peakRss = () => (typeof process !== 'undefined' && process.resourceUsage ? process.resourceUsage().maxRSS * 1024 : 0);

/** Reads `bytes` as `name` and returns the error, checking it is a quick, cheap RangeError naming the file. */
async function refusedQuickly(bytes, name, options = {}) {
  const peakBefore = peakRss();
  const start = performance.now();
  const error = await rejection(readTensors(bytes, { name, ...options }));
  const ms = performance.now() - start;
  expect(error, error.message).toBeInstanceOf(RangeError);
  expect(error.message.startsWith(`readTensors(${name}): `), error.message).toBe(true);
  expect(ms, `${name} took ${ms.toFixed(0)} ms`).toBeLessThan(SECOND);
  const grew = peakRss() - peakBefore;
  expect(grew, `${name} raised the peak RSS by ${(grew / MiB).toFixed(0)} MiB`).toBeLessThan(100 * MiB);
  return error;
}

describe('zip bombs are refused from the central directory, before inflating', () => {
  it('eight central-directory entries over one member of 512 MiB of zeros: refused as overlapping entries', async () => {
    const bytes = sharedMemberNpz(512 * MiB, 8);
    expect(bytes.length).toBeLessThan(600_000); // the bomb was 522,388 bytes
    const error = await refusedQuickly(bytes, 'shared.npz');
    expect(error.message).toMatch(/members t0\.npy and t1\.npy share bytes 0\.\.\d+ of the archive/);
  });

  it("an entry whose local header lies inside another member's data is refused as overlapping", async () => {
    const error = await refusedQuickly(nestedMemberNpz(), 'nested.npz');
    expect(error.message).toMatch(/^readTensors\(nested\.npz\): members outer\.npy and inner\.npy share bytes \d+\.\.\d+ of the archive/);
  });

  it('a 2 MB file with one member inflating to 2 GiB: refused as over the 1 GiB default of maxBytes', async () => {
    const bytes = hugeMemberNpz(2 ** 31);
    expect(bytes.length).toBeLessThan(2.1e6);
    const error = await refusedQuickly(bytes, 'huge.npz');
    expect(error.message).toBe(`readTensors(huge.npz): members declare ${2 ** 31} bytes in all, over the limit of ${2 ** 30} bytes (options.maxBytes)`);
  });

  it('a member that inflates past its declared size is stopped at that size', async () => {
    const error = await refusedQuickly(lyingMemberNpz(512 * MiB, MiB), 'lying.npz');
    expect(error.message).toBe(`readTensors(lying.npz): member a.npy inflates past its declared ${MiB} bytes`);
  });

  it('maxBytes raises or lowers the limit: a 64 MiB member reads under the default and is refused under 32 MiB', async () => {
    const bytes = zipArchive([zerosMember('a.npy', 64 * MiB)]);
    const { tensors } = await readTensors(bytes, { name: 'z.npz' });
    expect(tensors.a.data.length).toBe((64 * MiB - 128) / 4);
    expect(tensors.a.data.every((x) => x === 0)).toBe(true);
    const error = await refusedQuickly(bytes, 'z.npz', { maxBytes: 32 * MiB });
    expect(error.message).toBe(`readTensors(z.npz): members declare ${64 * MiB} bytes in all, over the limit of ${32 * MiB} bytes (options.maxBytes)`);
  });

  it('the float32 output is capped too: int8 data, 4 bytes an element once read, against maxBytes', async () => {
    const count = 3 * MiB;
    const header = npyHeader(count, '|i1');
    const npy = new Uint8Array(header.length + count);
    npy.set(header);
    const error = await refusedQuickly(npy, 'bytes.npy', { maxBytes: 8 * MiB });
    expect(error.message).toBe(
      `readTensors(bytes.npy): shape [${count}] brings the tensors to ${4 * count} bytes of float32 data, over the limit of ${8 * MiB} bytes (options.maxBytes)`,
    );
    expect((await readTensors(npy, { name: 'bytes.npy', maxBytes: 12 * MiB })).tensors.bytes.shape).toEqual([count]);
  });

  it('a Blob (a File of the Open dialog) over maxBytes is refused before it is read', async () => {
    const blob = new Blob([new Uint8Array(2 * MiB)]);
    const error = await refusedQuickly(blob, 'big.npy', { maxBytes: MiB });
    expect(error.message).toBe(`readTensors(big.npy): has ${2 * MiB} bytes, over the limit of ${MiB} bytes (options.maxBytes)`);
  });

  it('maxBytes must be a positive whole number', async () => {
    for (const [value, Kind] of [
      [0, RangeError],
      [-1, RangeError],
      [1.5, RangeError],
      [Infinity, RangeError],
      [NaN, RangeError],
      ['1e9', TypeError],
      [null, TypeError],
    ]) {
      const error = await rejection(readTensors(new Uint8Array(8), { name: 'x.npy', maxBytes: value }));
      expect(error, String(value)).toBeInstanceOf(Kind);
      expect(error.message).toMatch(/^readTensors: options\.maxBytes must be a/);
    }
  });
});

describe('safetensors layouts are checked from the header alone, before any tensor is decoded', () => {
  for (const count of [40, 400]) {
    it(`${count} tensors over one 64 MiB region: refused as overlapping`, async () => {
      const error = await refusedQuickly(sharedRegionSafetensors(count, 64 * MiB), `shared${count}.safetensors`);
      expect(error.message).toBe(`readTensors(shared${count}.safetensors): tensors 't0' and 't1' overlap (bytes 0..${64 * MiB})`);
    });
  }

  it('a later entry with a bad dtype is refused before the earlier, valid tensor is decoded', async () => {
    const header = { a: { dtype: 'F32', shape: [16 * MiB], data_offsets: [0, 64 * MiB] }, b: { dtype: 'F33', shape: [0], data_offsets: [64 * MiB, 64 * MiB] } };
    const bytes = safetensorsFile(header, 64 * MiB);
    const start = performance.now();
    const error = await rejection(readTensors(bytes, { name: 'late.safetensors' }));
    const refused = performance.now() - start;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/^readTensors\(late\.safetensors\): tensor 'b' has unknown dtype "F33"/);
    // Against the same file with b valid, read in full in this run (a loaded machine slows both):
    // a refusal that decoded a first would take about as long as that read.
    const valid = safetensorsFile({ ...header, b: { ...header.b, dtype: 'F32' } }, 64 * MiB);
    const readStart = performance.now();
    await readTensors(valid, { name: 'valid.safetensors' });
    const read = performance.now() - readStart;
    expect(refused, `refused in ${refused.toFixed(1)} ms, a full read took ${read.toFixed(1)} ms`).toBeLessThan(read / 4);
  });

  it('tensors over maxBytes of float32 are refused before any is decoded', async () => {
    const header = { a: { dtype: 'F16', shape: [8 * MiB], data_offsets: [0, 16 * MiB] } };
    const error = await refusedQuickly(safetensorsFile(header, 16 * MiB), 'half.safetensors', { maxBytes: 16 * MiB });
    expect(error.message).toBe(
      `readTensors(half.safetensors): tensor 'a' brings the tensors to ${32 * MiB} bytes of float32 data, over the limit of ${16 * MiB} bytes (options.maxBytes)`,
    );
  });
});
