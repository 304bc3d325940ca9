// The minor page faults of each timed call of ours. A call that returns its result in a fresh
// Float32Array writes memory the allocator may have just taken from the system, and on Linux the
// first write into each 4 KiB page of it traps into the kernel, which maps a zeroed page. Calls of
// the forward at B=1 H=8 T=512 d=64 (a 1 MiB output) back to back took 252 faults and 0.53-0.66 ms
// of system time each on the project's Zen 4 VM (2026-11-25), none with the caller's options.out:
// glibc gives the freed outputs' memory back to the system when the garbage collector frees them in
// a batch. In npm run bench, where the peers' calls come between ours, it was 0-82 a call.
// Node only (process.resourceUsage); elsewhere the contender is returned as it is.
import { withSamplesAround } from './contender.mjs';

const canCount = typeof process !== 'undefined' && typeof process.resourceUsage === 'function';
const minorFaults = () => process.resourceUsage().minorPageFault;

/** contender (contender.mjs) whose every time() also records that call's minor page faults in faultSamples. */
export const withPageFaults = (contender) =>
  canCount ? withSamplesAround(contender, 'faultSamples', minorFaults, (before) => minorFaults() - before) : contender;

/** The mean page faults of a withPageFaults contender's last `timed` calls (its warm-up calls come first), or undefined. */
export function faultsMean(contender, timed) {
  const samples = contender.faultSamples?.slice(-timed);
  return samples?.length ? samples.reduce((a, b) => a + b, 0) / samples.length : undefined;
}
