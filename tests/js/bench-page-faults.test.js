// The bench's count of each call's page faults (tools/bench/lib/page-faults.mjs): one sample per
// timed call, the mean over the last timed calls, and counts that tell a call writing fresh memory
// from one writing memory it already has. Node only: in a browser the contender comes back as it was.
import { describe, expect, it } from 'vitest';
import { contender } from '../../tools/bench/lib/contender.mjs';
import { faultsMean, withPageFaults } from '../../tools/bench/lib/page-faults.mjs';

const inNode = typeof process !== 'undefined' && typeof process.resourceUsage === 'function';
const PAGE = 4096;

describe('withPageFaults: the page faults of each timed call', () => {
  it.runIf(inNode)('counts about a fault per page a call first writes, and few for memory it reuses', async () => {
    // 64 MiB is above glibc's largest mmap threshold (32 MiB), so each such array is a new mapping
    // whose pages are all untouched: 16384 of them, each faulting once unless the kernel maps a huge
    // page (transparent huge pages set to "always"), so at least 1/8 of them is asked, not all.
    const bytes = 64 * 2 ** 20;
    const fresh = withPageFaults(contender({ library: 'test', form: 'fresh' }, () => new Uint8Array(bytes).fill(1)));
    const kept = new Uint8Array(bytes);
    kept.fill(1);
    const reused = withPageFaults(contender({ library: 'test', form: 'reused' }, () => kept.fill(2)));
    for (let i = 0; i < 3; i++) {
      await fresh.time();
      await reused.time();
    }
    expect(fresh.faultSamples).toHaveLength(3);
    expect(reused.faultSamples).toHaveLength(3);
    expect(faultsMean(fresh, 3)).toBeGreaterThan(bytes / PAGE / 8);
    expect(faultsMean(reused, 3)).toBeLessThan(bytes / PAGE / 100);
  });

  it.runIf(inNode)('averages only the last `timed` samples, after the warm-up calls', () => {
    expect(faultsMean({ faultSamples: [900, 900, 2, 4, 6] }, 3)).toBe(4);
    expect(faultsMean({ faultSamples: [] }, 3)).toBeUndefined();
  });

  it('leaves the contender as it was where it cannot count, and then has no mean', () => {
    const c = contender({ library: 'test', form: 'x' }, () => 1);
    const wrapped = withPageFaults(c);
    if (inNode) expect(wrapped.faultSamples).toEqual([]);
    else expect(wrapped).toBe(c);
    expect(faultsMean(c, 3)).toBeUndefined();
  });
});
