// Timing calls fairly on a shared machine: the one timing helper of the speed panel
// (web/site/features/speed) and the bench (tools/bench). Contenders take turns, one sample each
// per round, forward then backward order, so that a burst of load or a drift falls on all of them
// alike; each is warmed up first (V8 tiers wasm up only between calls, docs/toolchain.md); results
// are medians of the samples.

const SAMPLE_MS = 4; // browsers round performance.now() to 0.1 ms or coarser: the panel's samples last at least this

/** Forward scaled dot-product attention of H heads, T queries and keys, width d = dv: 4 H T^2 d flops. */
export const forwardFlops = ({ T, d, heads }) => 4 * heads * T * T * d;

/** The median: the middle value, or for an even count the mean of the two middle values. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

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
 * After each round, await onRound(samples, round); cancelled() true stops after that round.
 */
export async function timeAlternating(
  contenders,
  { minSamples = 3, maxSamples = 25, budgetMs = 2000, warmupMs = 300, maxWarmup = 3, slowMs = Infinity, onRound = () => {}, cancelled = () => false } = {},
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
    await onRound(samples, round + 1);
    if (cancelled()) break;
  }
  return samples;
}

/** Milliseconds per call of fn, one sample of `reps` calls. */
function sample(fn, reps) {
  const start = performance.now();
  for (let r = 0; r < reps; r++) fn();
  return (performance.now() - start) / reps;
}

/**
 * The speed panel's timing. contenders: [{ id, run() }]; a sample repeats a fast call until it
 * lasts SAMPLE_MS. Rounds go on until about budgetMs of timed calls (shared evenly, at least
 * minRounds, at most maxRounds); onRound(stats, round) after each, then a pause that lets a cancel
 * message in. -> stats: { [id]: { samples: ms[], median } }.
 */
export async function timeContenders(contenders, { budgetMs = 4000, minRounds = 3, maxRounds = 41, onRound = () => {}, cancelled = () => false } = {}) {
  const timers = contenders.map((c) => {
    c.run(); // warm up: compile, allocate
    const reps = Math.max(1, Math.ceil(SAMPLE_MS / Math.max(sample(c.run, 1), 1e-3)));
    return { time: () => sample(c.run, reps) };
  });
  const statsOf = (samples) =>
    Object.fromEntries(contenders.map((c, i) => [c.id, { samples: samples[i], median: samples[i].length ? median(samples[i]) : NaN }]));
  const samples = await timeAlternating(timers, {
    minSamples: minRounds,
    maxSamples: maxRounds,
    budgetMs: budgetMs / contenders.length,
    maxWarmup: 0,
    cancelled,
    onRound: async (s, round) => {
      onRound(statsOf(s), round);
      await new Promise((resolve) => setTimeout(resolve, 0)); // let a cancel message in
    },
  });
  return statsOf(samples);
}
