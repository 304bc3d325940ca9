// Property-based fuzzing of readTensors over hostile layouts (issue 37, finding 2): zip archives
// whose central directory shares or overlaps members, safetensors headers whose offsets overlap,
// leave holes or run past the data, and file bombs of random sizes. The expected outcome is
// computed here from the layout alone (an independent statement of the rules); readTensors must
// give it: the tensors, bit for bit, or a RangeError naming the file, quickly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTensors, writeNpy } from '../../web/io/index.js';
import { crc32Concat, hugeMemberNpz, lyingMemberNpz, safetensorsFile, sharedMemberNpz, sharedRegionSafetensors, zerosMember, zipArchive } from '../io/bombs.js';
import { fuzzParams, fuzzTimeout } from './settings.js';

const MiB = 2 ** 20;

/** Counts the outcomes of a property's runs: one that only ever sees errors, or never does, proves little. */
function tally() {
  const seen = { error: 0, result: 0 };
  return {
    seen,
    check() {
      const total = seen.error + seen.result;
      expect(seen.result / total, `results among ${total} files`).toBeGreaterThan(0.2);
      expect(seen.error / total, `refusals among ${total} files`).toBeGreaterThan(0.2);
    },
  };
}

async function outcome(bytes, options) {
  try {
    return { file: await readTensors(bytes, options) };
  } catch (error) {
    return { error };
  }
}

/** A named .npy member: stored float32 values, or deflated zeros. */
const member = fc.oneof(
  fc.array(fc.float({ noNaN: true }), { minLength: 1, maxLength: 12 }).map((values) => {
    const data = writeNpy({ data: values, shape: [values.length] });
    return { data, size: data.length, crc: crc32Concat(data, 0), method: 0, values: Float32Array.from(values) };
  }),
  fc.integer({ min: 1, max: 4096 }).map((n) => ({ ...zerosMember('x', 128 + 4 * n), values: null })),
);

/** 1-4 members, each with its own entry, plus 0-2 extra entries over a member (shared or shifted into it). */
const zipLayout = fc
  .record({
    members: fc.array(member, { minLength: 1, maxLength: 4 }),
    extra: fc.array(fc.record({ member: fc.nat(), shift: fc.constantFrom(0, 0, 1, 30, 40) }), { maxLength: 2 }),
    maxBytes: fc.option(fc.integer({ min: 64, max: 40_000 }), { freq: 3 }),
  })
  .map(({ members, extra, maxBytes }) => {
    const named = members.map((m, i) => ({ ...m, name: `m${i}.npy` }));
    const entries = named.map((m, i) => ({ name: m.name, member: i }));
    for (const [k, e] of extra.entries()) entries.push({ name: `x${k}.npy`, member: e.member % named.length, shift: e.shift });
    return { members: named, entries, maxBytes };
  });

/** What the layout must give: refused for shared bytes first, then for the limit, else the members. */
function expectedZip({ members, entries, maxBytes }) {
  if (entries.length > members.length) return /share bytes|local header lies outside the members' area or is damaged/;
  const declared = members.reduce((sum, m) => sum + m.size, 0);
  if (maxBytes !== null && declared > maxBytes) return /members declare \d+ bytes in all, over the limit/;
  return null;
}

/** 1-5 F32 tensors and their spans over the data: a tiling, or a tiling with one span moved. */
const safetensorsLayout = fc
  .record({
    counts: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 5 }),
    order: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
    fault: fc.option(fc.record({ tensor: fc.nat(), begin: fc.integer({ min: -8, max: 8 }), end: fc.integer({ min: -8, max: 8 }) }), { freq: 2 }),
    extraData: fc.constantFrom(0, 0, 0, 4),
  })
  .map(({ counts, order, fault, extraData }) => {
    // Lay the tensors out in a shuffled order, each where the previous one ended.
    const names = counts.map((_, i) => `t${i}`);
    const laid = [...names.keys()].sort((a, b) => order[a] - order[b] || a - b);
    const spans = new Array(names.length);
    let at = 0;
    for (const i of laid) {
      spans[i] = [at, at + 4 * counts[i]];
      at += 4 * counts[i];
    }
    if (fault) {
      const i = fault.tensor % names.length;
      spans[i] = [Math.max(0, spans[i][0] + 4 * fault.begin), Math.max(0, spans[i][1] + 4 * fault.end)];
    }
    return { names, counts, spans, dataLength: at + extraData };
  });

/** null when the spans tile the data exactly and each holds its shape; else the kind of refusal. */
function expectedSafetensors({ counts, spans, dataLength }) {
  for (const [i, [begin, end]] of spans.entries()) {
    if (begin > end) return /data_offsets must be \[begin, end\]/;
    if (end > dataLength) return /run past the end of the data/;
    if (end - begin !== 4 * counts[i]) return /needs \d+ bytes, data_offsets/;
  }
  const sorted = [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let covered = 0;
  for (const [begin, end] of sorted) {
    if (begin < covered) return /overlap/;
    if (begin > covered) return /belong to no tensor \(a hole\)/;
    covered = end;
  }
  return covered === dataLength ? null : /after the last tensor belong to no tensor/;
}

const bomb = fc.oneof(
  fc
    .record({ entries: fc.integer({ min: 2, max: 16 }), mib: fc.constantFrom(64, 256, 512, 1024) })
    .map(({ entries, mib }) => ({ name: 'shared.npz', bytes: () => sharedMemberNpz(mib * MiB, entries) })),
  fc.integer({ min: 1025, max: 2048 }).map((mib) => ({ name: 'huge.npz', bytes: () => hugeMemberNpz(mib * MiB) })),
  fc
    .record({ real: fc.constantFrom(64, 512), declared: fc.integer({ min: 1, max: 16 }) })
    .map(({ real, declared }) => ({ name: 'lying.npz', bytes: () => lyingMemberNpz(real * MiB, declared * MiB) })),
  fc
    .record({ count: fc.integer({ min: 2, max: 400 }), mib: fc.constantFrom(1, 4, 16) })
    .map(({ count, mib }) => ({ name: 'shared.safetensors', bytes: () => sharedRegionSafetensors(count, mib * MiB) })),
);

describe('fuzz: readTensors over hostile layouts', () => {
  it(
    'zip archives: members read bit for bit, or shared and overlapping entries and totals over maxBytes refused',
    async () => {
      const outcomes = tally();
      await fc.assert(
        fc.asyncProperty(zipLayout, async (layout) => {
          const bytes = zipArchive(layout.members, layout.entries);
          const options = { name: 'layout.npz', ...(layout.maxBytes !== null ? { maxBytes: layout.maxBytes } : {}) };
          const { file, error } = await outcome(bytes, options);
          const want = expectedZip(layout);
          outcomes.seen[want ? 'error' : 'result']++;
          if (want) {
            expect(error, `expected ${want}, got tensors`).toBeInstanceOf(RangeError);
            expect(error.message).toMatch(/^readTensors\(layout\.npz\): /);
            expect(error.message).toMatch(want);
            return;
          }
          expect(error, error && error.message).toBeUndefined();
          for (const m of layout.members) {
            const got = file.tensors[m.name.slice(0, -4)].data;
            const values = m.values ?? new Float32Array((m.size - 128) / 4);
            expect(got).toEqual(values);
          }
        }),
        fuzzParams(100),
      );
      outcomes.check();
    },
    fuzzTimeout(100),
  );

  it(
    'safetensors: tensors that tile the data read back, overlaps, holes and overruns refused by name',
    async () => {
      const outcomes = tally();
      await fc.assert(
        fc.asyncProperty(safetensorsLayout, async (layout) => {
          const header = {};
          for (const [i, name] of layout.names.entries()) header[name] = { dtype: 'F32', shape: [layout.counts[i]], data_offsets: layout.spans[i] };
          const bytes = safetensorsFile(header, layout.dataLength);
          // Each tensor's values are its index + 1, so a tensor read from another's bytes shows.
          const view = new DataView(bytes.buffer, bytes.length - layout.dataLength);
          const want = expectedSafetensors(layout);
          outcomes.seen[want ? 'error' : 'result']++;
          if (!want) for (const [i, [begin, end]] of layout.spans.entries()) for (let at = begin; at < end; at += 4) view.setFloat32(at, i + 1, true);
          const { file, error } = await outcome(bytes, { name: 'layout.safetensors' });
          if (want) {
            expect(error, `expected ${want}, got tensors`).toBeInstanceOf(RangeError);
            expect(error.message).toMatch(/^readTensors\(layout\.safetensors\): /);
            expect(error.message).toMatch(want);
            return;
          }
          expect(error, error && error.message).toBeUndefined();
          for (const [i, name] of layout.names.entries()) expect(file.tensors[name].data).toEqual(new Float32Array(layout.counts[i]).fill(i + 1));
        }),
        fuzzParams(100),
      );
      outcomes.check();
    },
    fuzzTimeout(100),
  );

  it(
    'file bombs of random sizes are refused in under a second with a RangeError naming the file',
    async () => {
      await fc.assert(
        fc.asyncProperty(bomb, async ({ name, bytes }) => {
          const file = bytes();
          const start = performance.now();
          const { error } = await outcome(file, { name });
          const ms = performance.now() - start;
          expect(error, `${name} was read`).toBeInstanceOf(RangeError);
          expect(error.message.startsWith(`readTensors(${name}): `), error.message).toBe(true);
          expect(ms, `${name}: ${error.message}`).toBeLessThan(1000);
        }),
        fuzzParams(20),
      );
    },
    fuzzTimeout(20),
  );
});
