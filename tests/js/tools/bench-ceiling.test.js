// The bench's ceiling over several readings (tools/bench/lib/ceiling.mjs higherCeilings): every
// efficiency of a run is a rate over it, so a low reading taken while something else held the core
// would make them all read high; and the probe by chain count (npm run bench:passes). Pure objects
// here but for the real probe calls.
import { describe, expect, it } from 'vitest';
import { WASM_TILE_CHAINS, ceilingByChains, ceilingOf, ceilingText, chainsText, higherCeilings } from '../../../tools/bench/lib/ceiling.mjs';
// Through Vite, so the same import works in Node and in Chromium.
import gemmSource from '../../../cpp/src/kernels_gemm.cpp?raw';

// One measureCeilings result: GFLOP/s per probe, null where the engine has no relaxed SIMD.
const reading = (simd, relaxed, simdWall = simd, relaxedWall = relaxed) => {
  const probe = (gflops, isRelaxed, clock) => (gflops === null ? null : { gflops, chains: 14, relaxed: isRelaxed, clock });
  return {
    simd: probe(simd, false, 'cpu'),
    relaxed: probe(relaxed, true, 'cpu'),
    simdWall: probe(simdWall, false, 'wall'),
    relaxedWall: probe(relaxedWall, true, 'wall'),
  };
};

describe('higherCeilings: a run is read against the highest of its ceiling readings', () => {
  it('takes each probe and clock from the reading where it was highest', () => {
    const start = reading(41.3, 58.5, 41.5, 58.4); // a process that started on a shared core
    const later = reading(52.0, 57.9, 51.8, 58.7);
    const c = higherCeilings(start, later);
    expect(c.simd.gflops).toBe(52.0);
    expect(c.relaxed.gflops).toBe(58.5);
    expect(c.simdWall.gflops).toBe(51.8);
    expect(c.relaxedWall.gflops).toBe(58.7);
    expect(ceilingOf(c, 'wasm-simd')).toBe(52.0);
    expect(ceilingOf(c, 'wasm-relaxed')).toBe(58.7);
  });

  it('does not depend on the order of the readings', () => {
    const a = reading(44.1, 57.7);
    const b = reading(52.2, 58.6);
    const c = reading(47.4, 58.5);
    expect(higherCeilings(a, b, c)).toEqual(higherCeilings(c, a, b));
  });

  it('counts readings and keeps the lowest mul+add one when folded one at a time, as the bench does', () => {
    let c = reading(50.0, 58.0);
    for (const next of [reading(41.3, 58.1), reading(52.1, 58.6)]) c = higherCeilings(c, next);
    expect(c.readings).toBe(3);
    expect(c.lowest).toBe(41.3);
    expect(c.simd.gflops).toBe(52.1);
    expect(ceilingText(c)).toContain('the highest of 3 readings (lowest mul+add 41.3)');
  });

  it('keeps an engine without relaxed SIMD at null, and a single reading reads as before', () => {
    const c = higherCeilings(reading(51.9, null), reading(50.2, null));
    expect(c.relaxed).toBeNull();
    expect(c.relaxedWall).toBeNull();
    expect(ceilingOf(c, 'wasm-relaxed')).toBeUndefined();
    expect(ceilingText(reading(51.9, null))).not.toContain('readings');
    expect(ceilingText(c)).toContain('not supported by this engine');
  });
});

describe('the ceiling by chains: what a register tile of that many accumulators can reach', () => {
  it("gives each count its share of the highest, truncated, and marks the tile's count", () => {
    // relaxed_madd on an Intel Xeon (family 6 model 207), 2026-11-27 (npm run bench:passes).
    const rows = [
      { chains: 6, gflops: 32.5 },
      { chains: 8, gflops: 40.4 },
      { chains: 10, gflops: 46.3 },
      { chains: 14, gflops: 44.4 },
    ];
    const text = chainsText('relaxed_madd', rows, 8);
    expect(text).toBe('relaxed_madd by chains, GFLOP/s: 6: 32.5 (70%), 8 (the tile): 40.4 (87%), 10: 46.3 (100%), 14: 44.4 (95%)');
  });

  it('knows the accumulators of the wasm tile that cpp/src/kernels_gemm.cpp builds', () => {
    const wasm = gemmSource.match(/#if defined\(__wasm_simd128__\)\s*constexpr int kTileRows = (\d+);[^\n]*\s*constexpr int kTileVectors = (\d+);/);
    expect(wasm).not.toBeNull();
    expect(Number(wasm[1]) * Number(wasm[2])).toBe(WASM_TILE_CHAINS);
  });

  it('reads every count from a real probe of this engine, in the order asked', async () => {
    const rows = await ceilingByChains({ chains: [4, 8], samples: 1 });
    expect(rows.map((r) => r.chains)).toEqual([4, 8]);
    for (const r of rows) expect(Number.isFinite(r.gflops) && r.gflops > 0).toBe(true);
  });
});
