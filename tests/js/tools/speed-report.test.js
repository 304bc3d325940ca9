// The speed panel's rows and Markdown report (web/site/features/speed/report.js): each contender's
// rate over the ceiling of its own instructions, and the text a reader copies to report a machine.
// The probe those ceilings come from (ceiling-probe.js) is checked for what it computes, not timed.
import { describe, expect, it } from 'vitest';
import { ceilingFor, ceilingSentence, markdownReport, speedRows } from '../../../web/site/features/speed/report.js';
import { probeBytes, tieredProbe } from '../../../web/measure/ceiling-probe.js';

const SIZE = { T: 512, d: 64, heads: 8 }; // 4 H T^2 d = 536.9 MFLOP per call
const FLOPS = 4 * 8 * 512 * 512 * 64;
const stat = (median) => ({ samples: [median, median, median], median });
const STATS = { 'wasm-relaxed': stat(12), 'wasm-simd': stat(14), 'wasm-scalar': stat(60), 'plain-js': stat(240) };
const CEILING = { simd: 52.5, relaxed: 58.8 };

describe('speedRows: each rate over the ceiling of its own instructions', () => {
  it('reads the relaxed build against relaxed_madd and every other contender against mul+add', () => {
    const rows = speedRows(STATS, SIZE, CEILING);
    expect(rows.map((r) => r.id)).toEqual(['wasm-relaxed', 'wasm-simd', 'wasm-scalar', 'plain-js']);
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    // GFLOP/s = flops / (ms * 1e6); of ceiling = that over the ceiling: no rounding in between.
    expect(byId['wasm-relaxed'].gflops).toBeCloseTo(FLOPS / 12e6, 9);
    expect(byId['wasm-relaxed'].ofCeiling).toBeCloseTo(FLOPS / 12e6 / 58.8, 12);
    expect(byId['wasm-simd'].ofCeiling).toBeCloseTo(FLOPS / 14e6 / 52.5, 12);
    expect(byId['wasm-scalar'].ofCeiling).toBeCloseTo(FLOPS / 60e6 / 52.5, 12);
    expect(byId['plain-js'].ofCeiling).toBeCloseTo(FLOPS / 240e6 / 52.5, 12);
    expect(byId['wasm-simd'].vsPlain).toBeCloseTo(240 / 14, 12);
    expect(byId['plain-js'].vsPlain).toBe(1);
    expect(byId['wasm-simd'].samples).toBe(3);
  });

  it('leaves "of ceiling" empty while no ceiling is known, and for relaxed where the engine has none', () => {
    expect(speedRows(STATS, SIZE, null).every((r) => r.ofCeiling === null)).toBe(true);
    const noRelaxed = speedRows(STATS, SIZE, { simd: 50, relaxed: null });
    expect(noRelaxed.find((r) => r.id === 'wasm-relaxed').ofCeiling).toBeNull();
    expect(noRelaxed.find((r) => r.id === 'wasm-simd').ofCeiling).toBeCloseTo(FLOPS / 14e6 / 50, 12);
    expect(ceilingFor('wasm-relaxed', { simd: 50, relaxed: null })).toBeNull();
  });

  it('gives no ratio to plain JS when plain JS was not timed', () => {
    const rows = speedRows({ 'wasm-simd': stat(14) }, SIZE, CEILING);
    expect(rows[0].vsPlain).toBeNaN();
  });
});

describe('markdownReport: the numbers with the machine they ran on', () => {
  const machine = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0', cores: 2 };

  it("has the size, the browser, the ceilings and one table row per contender, with the rows' own numbers", () => {
    const rows = speedRows(STATS, SIZE, CEILING);
    const text = markdownReport(rows, SIZE, CEILING, machine);
    expect(text).toContain('T = 512, d = 64, H = 8');
    expect(text).toContain('536.9 MFLOP per call');
    expect(text).toContain(`- Browser: ${machine.userAgent}`);
    expect(text).toContain('- Logical cores: 2');
    expect(text).toContain('- Ceiling (f32x4 mul+add / relaxed_madd): 52.5 / 58.8 GFLOP/s');
    const table = text.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| contender') && !l.startsWith('| ---'));
    expect(table).toHaveLength(4);
    // The SIMD row parsed back: ms, GFLOP/s, percent of the mul+add ceiling, ratio to plain JS.
    const simd = table[1].split('|').map((c) => c.trim());
    expect(simd[1]).toBe('wasm SIMD');
    expect(Number(simd[2])).toBe(14);
    expect(Number(simd[3])).toBeCloseTo(FLOPS / 14e6, 2);
    expect(simd[4]).toBe(`${Math.round((100 * FLOPS) / 14e6 / 52.5)}%`);
    expect(simd[5]).toBe(`${(240 / 14).toFixed(1)}x`);
  });

  it('says what is missing instead of inventing it', () => {
    const text = markdownReport(speedRows({ 'wasm-scalar': stat(60) }, SIZE, null), SIZE, null, { userAgent: 'x', cores: undefined });
    expect(text).toContain('- Logical cores: not reported');
    expect(text).toContain('- Ceiling (f32x4 mul+add / relaxed_madd): – / – GFLOP/s');
    expect(text).toMatch(/\| wasm scalar \| 60\.0 \| [0-9.]+ \| – \|/);
  });
});

describe('ceilingSentence', () => {
  it('names both ceilings, or says which one this engine lacks', () => {
    expect(ceilingSentence(CEILING)).toContain('52.5 GFLOP/s with f32x4 mul+add, 58.8 with f32x4.relaxed_madd');
    expect(ceilingSentence({ simd: 47.25, relaxed: null })).toContain('47.3 GFLOP/s with f32x4 mul+add (no relaxed SIMD in this engine)');
    expect(ceilingSentence({ simd: null, relaxed: null })).toContain('no WebAssembly SIMD');
  });
});

describe('the ceiling probe computes what its bytes say', () => {
  // Chain i starts at i + 2 and steps acc = acc * 0.5 + 0.5: one step gives (i + 3) / 2, summing to
  // (91 + 42) / 2 = 66.5 over the 14 chains; each step halves the distance to 1, so after 200 steps
  // every chain is exactly 1 and the sum 14. Both sums are exact in float32, fused or not.
  const relaxedInEngine = WebAssembly.validate(probeBytes({ relaxed: true }));
  const runs = async (relaxed) => {
    const f = await tieredProbe({ relaxed });
    expect(f(1)).toBe(66.5);
    expect(f(200)).toBe(14);
  };
  it('runs 14 chains of f32x4 mul then add', () => runs(false));
  it.skipIf(!relaxedInEngine)('runs 14 chains of f32x4.relaxed_madd (where the engine has relaxed SIMD)', () => runs(true));
});
