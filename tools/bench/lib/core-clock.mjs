// The time a call of ours spends inside the core (the wasm entry points), apart from what the JS API
// does around it: checking the arguments, copying the inputs into wasm memory and scanning them for
// NaN, then copying each result out into a fresh Float32Array and scanning it for overflow
// (boundary/memory.js). The bench reports both: the call is what a user times; the core is what the
// kernels do, the number to hold against the machine's ceiling when asking how good they are.
// At B=1 H=8 T=512 d=64 (4 MiB in and out) the API's part was 0.5-1.2 ms of a 14-15 ms forward on
// the project's Zen 4 VM: the copies, and when the allocator hands out new memory, the first writes
// into the fresh result's pages (page-faults.mjs).
//
// It wraps the packed entries of one loaded build (boundary/packed.js: every operation reaches the
// core through them), so it sees exactly the wasm calls and nothing else. For the bench only: the
// library never loads this file.
import { loadModule } from '../../../web/src/boundary/loader.js';
import { preparePacked } from '../../../web/src/boundary/packed.js';
import { median } from '../../../web/site/features/speed/timing.js';
import { withSamplesAround } from './contender.mjs';

const clocks = new WeakMap(); // module -> clock
const clocksOfApis = new WeakMap(); // loadAttention() result -> its module's clock

/**
 * The clock of the build `attn` (a loadAttention() result of one thread): { ms } where ms is the
 * total time spent in core entry points since the clock was made, read by now() (ms: wall clock, or
 * efficiency.mjs's CPU time). Made once per module, with the first caller's now().
 */
export async function coreClock(attn, now = () => performance.now()) {
  // The load option that picks attn's build again, as threads/parallel.js's workerLoadOptions finds it
  // (the package keeps that table to itself, to keep the ./worker entry within its size budget).
  const simd = { 'wasm-simd': true, 'wasm-relaxed': 'relaxed', 'wasm-scalar': false }[attn.backend];
  const { module } = await loadModule({ simd }); // the cached build attn runs on
  if (clocks.has(module)) {
    clocksOfApis.set(attn, clocks.get(module));
    return clocks.get(module);
  }
  const clock = { ms: 0 };
  for (const entry of Object.values(preparePacked(module).entries)) {
    const call = entry.call;
    entry.call = (record) => {
      const t0 = now();
      try {
        return call(record);
      } finally {
        clock.ms += now() - t0;
      }
    };
  }
  clocks.set(module, clock);
  clocksOfApis.set(attn, clock);
  return clock;
}

/** The clock coreClock(attn) made, or undefined (not asked for, or a pool of workers). */
export const coreClockOf = (attn) => clocksOfApis.get(attn);

/** contender (contender.mjs) whose every time() also records the core's share of that call in coreSamples. */
export const withCoreSamples = (contender, clock) => withSamplesAround(contender, 'coreSamples', () => clock.ms, (before) => clock.ms - before);

/** The median core ms of a withCoreSamples contender's last `timed` calls (its warm-up calls come first). */
export const coreMedianMs = (contender, timed) => median(contender.coreSamples.slice(-timed));
