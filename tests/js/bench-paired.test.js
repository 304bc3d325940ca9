// The benches' round-by-round ratio of two contenders (tools/bench/lib/paired.mjs): a ratio that
// holds in every round reads exactly, however much the rounds themselves differ, and its spread
// is the middle half of the rounds' ratios.
import { describe, expect, it } from 'vitest';
import { pairedRatio, pairedText } from '../../tools/bench/lib/paired.mjs';

describe('pairedRatio', () => {
  it('reads a constant ratio exactly while the machine slows from round to round', () => {
    // A shared machine: each round 1x to 3x slower than the quietest; the contender is 0.9x throughout.
    const slowdown = [1, 3, 1.2, 2.5, 1.1, 2.8, 1.3];
    const denominator = slowdown.map((s) => 10 * s);
    const numerator = slowdown.map((s) => 9 * s);
    const paired = pairedRatio(numerator, denominator);
    expect(paired.median).toBeCloseTo(0.9, 12);
    expect(paired.q1).toBeCloseTo(0.9, 12);
    expect(paired.q3).toBeCloseTo(0.9, 12);
    expect(paired.rounds).toBe(7);
  });

  it('gives the quartiles of the ratios by nearest rank', () => {
    const denominator = [1, 1, 1, 1, 1, 1, 1, 1, 1];
    const numerator = [5, 1, 9, 3, 7, 2, 8, 4, 6]; // ratios 1..9
    expect(pairedRatio(numerator, denominator)).toEqual({ median: 5, q1: 3, q3: 7, rounds: 9 });
    // Ranks at 0.25, 0.5 and 0.75 of (rounds - 1), rounded: 0.75, 1.5 and 2.25 of 3.
    expect(pairedRatio([4, 1, 3, 2], [1, 1, 1, 1])).toEqual({ median: 3, q1: 2, q3: 3, rounds: 4 });
  });

  it('pairs only the rounds both have, and skips rounds without a finite positive time', () => {
    expect(pairedRatio([2, 4, 6], [1, 2])).toEqual({ median: 2, q1: 2, q3: 2, rounds: 2 });
    expect(pairedRatio([2, NaN, 3, 5], [1, 1, 0, -1])).toEqual({ median: 2, q1: 2, q3: 2, rounds: 1 });
    expect(pairedRatio([0, 2], [1, 1])).toEqual({ median: 2, q1: 2, q3: 2, rounds: 1 });
    expect(pairedRatio([], [])).toBeNull();
    expect(pairedRatio([1], [0])).toBeNull();
  });

  it('writes the median and the middle half', () => {
    expect(pairedText({ median: 0.9571, q1: 0.9374, q3: 1.0162, rounds: 41 })).toBe('0.957 (middle half 0.937-1.016 of 41 rounds)');
    expect(pairedText(null)).toBe('-');
  });
});
