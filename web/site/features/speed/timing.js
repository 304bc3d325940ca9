// Timing attention calls fairly on a shared machine: contenders take turns (one sample each per
// round, so a burst of load hits all of them), a sample repeats a fast call until it lasts
// SAMPLE_MS (timer resolution), and the result is the median per call.

const SAMPLE_MS = 4; // browsers round performance.now() to 0.1 ms or coarser: time at least this long

/** Forward scaled dot-product attention of H heads, T queries and keys, width d = dv: 4 H T^2 d flops. */
export const forwardFlops = ({ T, d, heads }) => 4 * heads * T * T * d;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds per call of fn, one sample: enough calls to last SAMPLE_MS. */
function sample(fn, reps) {
  const start = performance.now();
  for (let r = 0; r < reps; r++) fn();
  return (performance.now() - start) / reps;
}

/**
 * contenders: [{ id, run() }]. Runs rounds until budgetMs of wall time has passed (at least
 * minRounds, at most maxRounds); onRound(stats) after each. -> stats: { [id]: { samples: ms[], median } }.
 */
export async function timeContenders(contenders, { budgetMs = 4000, minRounds = 3, maxRounds = 41, onRound = () => {}, cancelled = () => false } = {}) {
  const reps = {};
  const stats = {};
  for (const c of contenders) {
    c.run(); // warm up: compile, allocate
    const once = sample(c.run, 1);
    reps[c.id] = Math.max(1, Math.ceil(SAMPLE_MS / Math.max(once, 1e-3)));
    stats[c.id] = { samples: [], median: NaN };
  }
  const started = performance.now();
  for (let round = 0; round < maxRounds; round++) {
    for (const c of contenders) {
      stats[c.id].samples.push(sample(c.run, reps[c.id]));
      stats[c.id].median = median(stats[c.id].samples);
    }
    onRound(stats, round + 1);
    if (cancelled()) break;
    if (round + 1 >= minRounds && performance.now() - started > budgetMs) break;
    await new Promise((resolve) => setTimeout(resolve, 0)); // let a cancel message in
  }
  return stats;
}
