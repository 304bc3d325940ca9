// The machine's WebAssembly SIMD ceiling in the bench's own process: the probe of
// web/measure/ceiling-probe.js (independent f32x4 multiply-add chains; the speed panel
// reads the same one in the browser), read here by CPU time (measureCeiling, where Node has it)
// and by the wall clock, several times over a run (higherCeilings).
import { measureCeiling } from '../../../web/measure/ceiling-probe.js';

/**
 * Both ceilings of this engine by both clocks: { simd, relaxed, simdWall, relaxedWall } (the relaxed
 * ones null where unsupported). The CPU-time ones are the machine's; wall time over CPU time shows
 * how much of the core other jobs took during the probe.
 */
export async function measureCeilings(options = {}) {
  return {
    simd: await measureCeiling(options),
    relaxed: await measureCeiling({ ...options, relaxed: true }),
    simdWall: await measureCeiling({ ...options, clock: 'wall' }),
    relaxedWall: await measureCeiling({ ...options, relaxed: true, clock: 'wall' }),
  };
}

/**
 * The higher of each of several measureCeilings readings, field by field (null where none has it),
 * with `readings`, how many were taken, and `lowest`, the lowest mul+add one in CPU time.
 * A ceiling is what the machine can do, so a low reading is time something else took (on a shared
 * VM a whole process can read 20% low): against the highest of readings spread over the run, a
 * quiet minute anywhere in it sets the ceiling and no efficiency reads high.
 */
export function higherCeilings(...readings) {
  const higher = (key) => readings.map((r) => r[key]).reduce((a, b) => (!a || (b && b.gflops > a.gflops) ? b : a), null);
  const lowest = Math.min(...readings.map((r) => r.lowest ?? r.simd?.gflops ?? Infinity));
  const count = readings.reduce((n, r) => n + (r.readings ?? 1), 0);
  return {
    simd: higher('simd'),
    relaxed: higher('relaxed'),
    simdWall: higher('simdWall'),
    relaxedWall: higher('relaxedWall'),
    readings: count,
    lowest,
  };
}

/**
 * The ceiling a row of the bench is measured against: relaxed_madd for our relaxed build, else
 * mul+add; the faster of its CPU-time and wall-clock readings. A slower reading means something
 * else took the time: in CPU time, another thread of this process (a peer's spinning pool).
 */
export function ceilingOf(ceilings, form) {
  const [cpu, wall] = form === 'wasm-relaxed' ? [ceilings.relaxed, ceilings.relaxedWall] : [ceilings.simd, ceilings.simdWall];
  const readings = [cpu?.gflops, wall?.gflops].filter((x) => Number.isFinite(x));
  return readings.length > 0 ? Math.max(...readings) : undefined;
}

/**
 * Accumulators in the products' register tile of the wasm builds (cpp/src/kernels_gemm.cpp:
 * kTileRows x kTileVectors = 2 x 4 under __wasm_simd128__): the number of independent multiply-add
 * chains the S^T and P V products keep in flight. bench-ceiling.test.js reads it back from there.
 */
export const WASM_TILE_CHAINS = 8;

/**
 * The probe's GFLOP/s by its number of chains, for one form (mul+add, or relaxed_madd when
 * `relaxed`): [{ chains, gflops }], the best of `samples` readings each in CPU time, or null where
 * the engine does not validate the relaxed probe. Where a count under 14 reads well below 14's, its
 * chains wait on their own latency, and so does a kernel whose register tile holds that many
 * accumulators (npm run bench:passes prints it beside the passes).
 */
export async function ceilingByChains({ relaxed = false, chains = [6, 8, 10, 12, 14], samples = 5 } = {}) {
  const rows = [];
  for (const count of chains) {
    const reading = await measureCeiling({ relaxed, chains: count, samples });
    if (!reading) return null;
    rows.push({ chains: count, gflops: reading.gflops });
  }
  return rows;
}

/**
 * One line of ceilingByChains rows: each count's GFLOP/s and its share of the highest count's
 * (truncated to a whole percent), the count `tileChains` marked as the tile's.
 */
export function chainsText(form, rows, tileChains = WASM_TILE_CHAINS) {
  const top = Math.max(...rows.map((r) => r.gflops));
  const one = (r) => `${r.chains}${r.chains === tileChains ? ' (the tile)' : ''}: ${r.gflops.toFixed(1)} (${Math.floor((100 * r.gflops) / top)}%)`;
  return `${form} by chains, GFLOP/s: ${rows.map(one).join(', ')}`;
}

/** One line about the ceilings (one reading, or higherCeilings of several), for the terminal and results.md. */
export function ceilingText(c) {
  const one = (x, wall) => (x ? `${x.gflops.toFixed(1)} GFLOP/s (${wall ? `wall clock ${wall.gflops.toFixed(1)}` : ''})` : 'not supported by this engine');
  const several = c.readings > 1 ? `, the highest of ${c.readings} readings (lowest mul+add ${c.lowest.toFixed(1)})` : '';
  return `wasm SIMD ceiling, ${c.simd.chains} chains, CPU time${several}: f32x4 mul+add ${one(c.simd, c.simdWall)}, f32x4.relaxed_madd ${one(c.relaxed, c.relaxedWall)}`;
}
