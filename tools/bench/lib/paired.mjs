// Two contenders compared round by round. timeAlternating (web/measure/timing.js) times
// every contender once a round, so a round's samples share that moment of the machine: on a shared
// host (an Intel Xeon, 2 vCPUs, 2026-11-27) the same call took 16.2 ms in one run and 24.6 ms in the
// next, while two tiles of the relaxed build differ by a few percent. Each round's own ratio compares
// calls made moments apart; their median is the comparison, and their middle half (first to third
// quartile) shows how far one round can mislead: a difference inside it is not shown to be real.

/** The value at fraction `at` (0..1) of `sorted` (ascending), by nearest rank. */
function rank(sorted, at) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(at * (sorted.length - 1))))];
}

/**
 * numerator[i] / denominator[i] for each round i both have, -> { median, q1, q3, rounds }; null
 * when they share no round with finite positive times.
 */
export function pairedRatio(numerator, denominator) {
  const ratios = [];
  for (let i = 0; i < Math.min(numerator.length, denominator.length); i++) {
    const ratio = numerator[i] / denominator[i];
    if (Number.isFinite(ratio) && ratio > 0) ratios.push(ratio);
  }
  if (ratios.length === 0) return null;
  ratios.sort((a, b) => a - b);
  return { median: rank(ratios, 0.5), q1: rank(ratios, 0.25), q3: rank(ratios, 0.75), rounds: ratios.length };
}

/** "0.957 (middle half 0.937-1.016 of 41 rounds)", or "-" for null. */
export function pairedText(paired) {
  if (paired === null) return '-';
  return `${paired.median.toFixed(3)} (middle half ${paired.q1.toFixed(3)}-${paired.q3.toFixed(3)} of ${paired.rounds} rounds)`;
}
