// Alternating-round timing shared by the benchmarks.
// V8 tiers wasm up only between calls (docs/toolchain.md), so each contender is warmed up with a few
// calls and then timed over many separate calls. Rounds alternate the contenders (forward, then
// backward order) so that drift from other jobs on the machine falls on all of them alike.

/** The middle sample (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Milliseconds of one call of fn (sync or async). */
export async function timeCall(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * contenders: [{ time: async () => ms }] (one timed call each). Returns one array of ms per contender.
 * Every contender is warmed up (calls until warmupMs has passed, at most maxWarmup calls), then
 * sampled round by round: at least minSamples times, and on while its timed total is under
 * budgetMs and it has fewer than maxSamples; a slow contender thus stops after minSamples while
 * fast ones go on alternating with each other. A call slower than slowMs (seconds of plain JS or of
 * tf.grads at T = 2048, after the caller's check call has already run it once) is itself the one
 * sample: many more would add minutes and change nothing in a ratio of 10 or more.
 */
export async function timeAlternating(
  contenders,
  { minSamples = 3, maxSamples = 25, budgetMs = 2000, warmupMs = 300, maxWarmup = 3, slowMs = Infinity } = {},
) {
  const samples = contenders.map(() => []);
  const done = contenders.map(() => false);
  for (const [i, c] of contenders.entries()) {
    let spent = 0;
    for (let n = 0; n < maxWarmup && spent < warmupMs; n++) {
      const ms = await c.time();
      spent += ms;
      if (ms >= slowMs) {
        samples[i].push(ms);
        done[i] = true;
        break;
      }
    }
  }
  const spent = contenders.map(() => 0);
  const wants = (i) => !done[i] && (samples[i].length < minSamples || (spent[i] < budgetMs && samples[i].length < maxSamples));
  for (let round = 0; contenders.some((_, i) => wants(i)); round++) {
    const order = contenders.map((_, i) => i);
    if (round % 2) order.reverse();
    for (const i of order) {
      if (!wants(i)) continue;
      const ms = await contenders[i].time();
      samples[i].push(ms);
      spent[i] += ms;
    }
  }
  return samples;
}
