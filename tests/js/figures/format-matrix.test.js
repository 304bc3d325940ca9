// formatMatrix (web/figures/format.js): one number of decimals per matrix. Issue 33 saw
// "-0.4500 0.82 -5.450" in one matrix: each cell chose its own form, so the columns did not line up
// and 0.82 read as more exact than its neighbours.
import { describe, expect, it } from 'vitest';
import { formatMatrix, formatNumber } from '../../../web/figures/format.js';

const M = '\u2212';
// float32 values one ulp away from the decimals they print as: computed, not typed.
const near = (x) => new Float32Array(new Uint32Array([new Uint32Array(Float32Array.of(x).buffer)[0] + 1]).buffer)[0];

describe('formatMatrix', () => {
  it('gives every cell of a computed matrix the same decimals: 4 significant digits of the largest, 2 to 4 decimals', () => {
    const issue = Float32Array.of(near(-0.45), 0.82, near(-5.45));
    expect(Array.from(issue, formatNumber)).toEqual([`${M}0.4500`, '0.82', `${M}5.450`]); // the cell-by-cell forms it replaces
    expect(formatMatrix(issue)).toEqual([`${M}0.450`, '0.820', `${M}5.450`]);
    expect(formatMatrix(Float32Array.of(near(0.0557), 0.0016, 0.9427))).toEqual(['0.0557', '0.0016', '0.9427']);
    expect(formatMatrix(Float32Array.of(near(11.3137), 0.5, 2))).toEqual(['11.31', '0.50', '2.00']);
    expect(formatMatrix(Float32Array.of(near(123.456), 1 / 3))).toEqual(['123.46', '0.33']);
  });

  it('shows a matrix of short decimals as typed, integers as integers', () => {
    expect(formatMatrix(Float32Array.of(1, 2, 0.5, -1.25))).toEqual(['1', '2', '0.5', `${M}1.25`]);
  });

  it('keeps exact zeros, infinities and exponent forms as they are, and lets them not decide the decimals', () => {
    expect(formatMatrix(Float32Array.of(-Infinity, 0, 1 / 3, -1e6, 3e-7))).toEqual([`${M}∞`, '0', '0.3333', `${M}1e6`, '3e-7']);
  });
});
