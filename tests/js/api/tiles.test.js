// The products' register tiles (cpp/src/kernels_gemm.cpp): the relaxed build has 2 x 4 and 6 x 2,
// chosen at load by a calibration (web/src/boundary/tile-calibration.js); every other build has one.
//   1. the calibration's choice, on a stand-in module and clock: which tile, when it keeps the
//      default, what a slow window or a late optimizing tier does to it;
//   2. the page's calibration in the background (tileChoice), and the loader: the tile option and
//      its errors, attn.kernel and kernelSettled, a healed instance keeping the tile;
//   3. the two tiles give the same bits, for every product shape whose rows and columns leave a
//      remainder in either tile (the relaxed build only: whichever tile the calibration picks runs
//      every other suite against the references, and this one ties the other to it).
import { describe, expect, it } from 'vitest';
import { loadAttention } from '../../../web/src/index.js';
import { loadModule } from '../../../web/src/boundary/loader.js';
import {
  ATTEMPTS,
  MAX_ROUNDS,
  MIN_ROUNDS,
  RETRY_PAUSE_MS,
  SAMPLE_MS,
  SAMPLE_TICKS,
  STABLE_MS,
  STEADY,
  SWITCH_GAIN,
  WARM_UP_LIMIT_MS,
  calibrateTile,
  calibrateWithRetries,
  tileChoice,
} from '../../../web/src/boundary/tile-calibration.js';
import { BACKENDS, backendNamed } from '../shared/backends.js';

/**
 * A module of `msPerRep[t]` ms a call of the product in tile t, on a clock that only this module
 * moves: calls before `optimizedAfter` run `slowdown` times slower (the engine's baseline code),
 * and `disturb(round)` multiplies the time of the timing phase's calls (a slow window).
 */
function standIn({ msPerRep, optimizedAfter = 0, slowdown = 10, disturb = () => 1, compileMs = 0 }) {
  let clock = 0;
  let optimizedAtMs = optimizedAfter === 0 ? 0 : Infinity; // the clock when the optimized code arrived
  let tile = 0;
  let calls = 0;
  let timed = 0; // calls with reps > 2: the timing phase's
  const module = {
    tileCount: () => msPerRep.length,
    tileName: (t) => ['2x4', '6x2', '3x3'][t],
    setTile: (t) => {
      tile = t;
    },
    currentTile: () => tile,
    calibrationProduct: (reps) => {
      calls += 1;
      const round = reps > 2 ? Math.floor(timed++ / msPerRep.length) : -1;
      if (calls === 1) clock += compileMs; // the first call compiles the baseline code
      if (calls === optimizedAfter + 1) optimizedAtMs = clock;
      clock += reps * msPerRep[tile] * (calls <= optimizedAfter ? slowdown : 1) * (round >= 0 ? disturb(round) : 1);
    },
  };
  const now = () => clock;
  const wait = async (ms) => {
    clock += ms;
  };
  return { module, now, wait, calls: () => calls, optimizedAtMs: () => optimizedAtMs };
}

describe('the calibration chooses the faster tile, and keeps the default unless another is clearly faster', () => {
  it("picks 6x2 when it takes 0.9 of 2x4's time, and leaves it set", async () => {
    const s = standIn({ msPerRep: [0.03, 0.027] });
    const choice = await calibrateTile(s.module, s);
    expect(choice.tile).toBe('6x2');
    expect(choice.chosenBy).toBe('calibrated');
    expect(s.module.currentTile()).toBe(1);
    expect(choice.calibration.ratio).toBeCloseTo(0.9, 6);
    expect(choice.calibration.sampleMs['6x2'] / choice.calibration.sampleMs['2x4']).toBeCloseTo(0.9, 6);
  });

  it(`keeps 2x4 when the other is faster by less than SWITCH_GAIN (${SWITCH_GAIN})`, async () => {
    const s = standIn({ msPerRep: [0.03, 0.03 * (1 - SWITCH_GAIN / 2)] });
    const choice = await calibrateTile(s.module, s);
    expect(choice.tile).toBe('2x4');
    expect(s.module.currentTile()).toBe(0);
    expect(choice.calibration.ratio).toBe(1);
  });

  it('keeps 2x4 when it is the faster one', async () => {
    const s = standIn({ msPerRep: [0.03, 0.04] });
    expect((await calibrateTile(s.module, s)).tile).toBe('2x4');
  });

  it("chooses among three tiles by each one's ratio to the default", async () => {
    const s = standIn({ msPerRep: [0.03, 0.028, 0.024] });
    const choice = await calibrateTile(s.module, s);
    expect(choice.tile).toBe('3x3');
    expect(s.module.currentTile()).toBe(2);
  });

  it('is not misled by a slow window: it times on until two samples of each tile agree, and their fastest decides', async () => {
    // Another job only adds time: round 1 runs 3 times slower, so after 2 rounds no tile's two
    // samples agree; round 2 is clean, and its samples agree with round 0's.
    const s = standIn({ msPerRep: [0.03, 0.027], disturb: (round) => (round === 1 ? 3 : 1) });
    const choice = await calibrateTile(s.module, s);
    expect(choice.tile).toBe('6x2');
    expect(choice.calibration.ratio).toBeCloseTo(0.9, 6);
    expect(choice.calibration.rounds).toBe(3);
  });

  it(`stops after ${MIN_ROUNDS} rounds where the samples agree, and reports their time`, async () => {
    const s = standIn({ msPerRep: [0.03, 0.027] });
    const { calibration } = await calibrateTile(s.module, s);
    expect(calibration.rounds).toBe(MIN_ROUNDS);
    expect(calibration.steady).toBe(true);
    expect(calibration.timingMs).toBeCloseTo(MIN_ROUNDS * calibration.reps * (0.03 + 0.027), 6);
  });

  it(`times at most ${MAX_ROUNDS} rounds where the samples never agree, and then keeps the default`, async () => {
    // Each round 10% slower than the one before (both tiles alike): no two samples within STEADY,
    // and though 6x2's fastest reads 0.9 of 2x4's, unsteady samples are no evidence to switch on.
    const s = standIn({ msPerRep: [0.03, 0.027], disturb: (round) => 1 + 5 * STEADY * round });
    const choice = await calibrateTile(s.module, s);
    expect(choice.calibration.rounds).toBe(MAX_ROUNDS);
    expect(choice.calibration.steady).toBe(false);
    expect(choice.tile).toBe('2x4');
    expect(choice.calibration.ratio).toBe(1);
    expect(choice.calibration.sampleMs['6x2'] / choice.calibration.sampleMs['2x4']).toBeCloseTo(0.9, 6);
  });

  it("times only after the engine's optimized code arrives: samples from baseline code would all read 10x slower", async () => {
    const s = standIn({ msPerRep: [0.03, 0.027], optimizedAfter: 100, slowdown: 10 });
    const choice = await calibrateTile(s.module, s);
    expect(s.calls()).toBeGreaterThan(100 + 2 * MIN_ROUNDS);
    // Each sample lasts about SAMPLE_MS at the optimized rate, not at the baseline's.
    expect(choice.calibration.sampleMs['2x4']).toBeGreaterThan(1);
    expect(choice.calibration.sampleMs['2x4']).toBeLessThan(2.5);
    expect(choice.tile).toBe('6x2');
  });

  it("does not take the first call's compile for the baseline's rate: the baseline after it is no jump", async () => {
    // A lazily compiling engine: the first call also compiles (5 ms), so a rate read over it is
    // 9x slower than the baseline code's; the optimized code arrives after 200 calls, later than
    // STABLE_MS of baseline calls. The warm-up must wait for it, not settle on the baseline.
    const s = standIn({ msPerRep: [0.03, 0.027], optimizedAfter: 200, slowdown: 10, compileMs: 5 });
    const choice = await calibrateTile(s.module, s);
    expect(s.optimizedAtMs()).toBeGreaterThan(STABLE_MS);
    expect(choice.calibration.warmUpMs).toBeGreaterThan(s.optimizedAtMs() + STABLE_MS);
    expect(choice.calibration.reps * 0.03).toBeGreaterThan(SAMPLE_MS / 2); // sized at the optimized rate
    expect(choice.tile).toBe('6x2');
  });

  it('lengthens samples that last under half the target, as when the optimized code arrives after the warm-up', async () => {
    // An engine whose optimized code arrives on the first timed call: the warm-up reads only the
    // baseline's rate (10x slower), so its reps would give samples of a tenth of SAMPLE_MS.
    const dry = standIn({ msPerRep: [0.03, 0.027], optimizedAfter: Infinity });
    const { calibration: baseline } = await calibrateTile(dry.module, dry);
    const warmUpCalls = dry.calls() - baseline.rounds * 2;
    const s = standIn({ msPerRep: [0.03, 0.027], optimizedAfter: warmUpCalls });
    const choice = await calibrateTile(s.module, s);
    expect(choice.calibration.reps).toBeGreaterThan(5 * baseline.reps);
    expect(choice.calibration.sampleMs['2x4']).toBeGreaterThanOrEqual(SAMPLE_MS);
    expect(choice.calibration.sampleMs['2x4']).toBeLessThan(2 * SAMPLE_MS);
    expect(choice.tile).toBe('6x2');
  });

  it(`gives up waiting for a jump after WARM_UP_LIMIT_MS (${WARM_UP_LIMIT_MS} ms): an engine whose first code is its best`, async () => {
    const s = standIn({ msPerRep: [0.03, 0.027] });
    const choice = await calibrateTile(s.module, s);
    expect(choice.calibration.warmUpMs).toBeGreaterThanOrEqual(WARM_UP_LIMIT_MS);
    expect(choice.calibration.warmUpMs).toBeLessThan(WARM_UP_LIMIT_MS + 20);
  });

  // A page that is not cross-origin isolated reads performance.now() in steps of 0.1 ms (Chromium
  // 156): 2 products at 40 GFLOP/s read 0 or 0.1 ms there. Here the stand-in's clock advances 1e-4 ms
  // a reading, as a real one does, and is read in whole steps of 0.1.
  const coarse = (s, stepMs) => {
    let drift = 0;
    return () => Math.floor((s.now() + (drift += 1e-4)) / stepMs) * stepMs;
  };

  it("sizes its samples from the clock's step where the clock is coarse: 50 steps, not 1.5 ms of 0.1 ms steps", async () => {
    const s = standIn({ msPerRep: [0.013, 0.0117] }); // one product at about 40 GFLOP/s, 6x2 at 0.9 of it
    const choice = await calibrateTile(s.module, { now: coarse(s, 0.1), wait: s.wait });
    expect(choice.tile).toBe('6x2');
    expect(choice.calibration.clockStepMs).toBeCloseTo(0.1, 5);
    const sampleMs = choice.calibration.reps * 0.013;
    expect(sampleMs).toBeGreaterThanOrEqual(SAMPLE_TICKS * 0.1 * 0.9);
    expect(sampleMs).toBeLessThanOrEqual(SAMPLE_TICKS * 0.1 * 2);
  });

  it('keeps the default where the other tile is faster by less than two steps of a coarse clock', async () => {
    const s = standIn({ msPerRep: [0.013, 0.0127] }); // 0.977: about 0.1 ms of a 5 ms sample
    const choice = await calibrateTile(s.module, { now: coarse(s, 0.1), wait: s.wait });
    expect(choice.tile).toBe('2x4');
  });

  it('says "only" for a build with one tile, and times nothing', async () => {
    const s = standIn({ msPerRep: [0.03] });
    expect(await calibrateTile(s.module, s)).toEqual({ tile: '2x4', chosenBy: 'only', calibration: null });
    expect(s.calls()).toBe(0);
  });
});

describe('calibrateWithRetries: samples that never agreed are timed again after a pause', () => {
  // Each round 10% slower than the one before, for the first `rounds` rounds of timing, then level:
  // the first attempt's samples never agree, the next one's do.
  const slowingFor = (rounds) => (round) => (round < rounds ? 1 + 5 * STEADY * round : 1);

  it('times again after RETRY_PAUSE_MS, without the warm-up, and chooses on the attempt whose samples agree', async () => {
    const s = standIn({ msPerRep: [0.03, 0.027], disturb: slowingFor(MAX_ROUNDS) });
    const choice = await calibrateWithRetries(s.module, s);
    expect(choice.tile).toBe('6x2');
    expect(s.module.currentTile()).toBe(1);
    const { calibration } = choice;
    expect(calibration.attempts).toBe(2);
    expect(calibration.steady).toBe(true);
    expect(calibration.rounds).toBe(MIN_ROUNDS); // the last attempt's
    expect(calibration.ratio).toBeCloseTo(0.9, 6);
    // The first attempt's warm-up waited WARM_UP_LIMIT_MS (this engine's first code is its best);
    // the second one's none: the whole took the warm-up, the pause and the samples, and little else.
    expect(calibration.warmUpMs).toBeGreaterThanOrEqual(WARM_UP_LIMIT_MS);
    expect(calibration.timingMs).toBeCloseTo((MAX_ROUNDS * (1 + (5 * STEADY * (MAX_ROUNDS - 1)) / 2) + MIN_ROUNDS) * calibration.reps * (0.03 + 0.027), 6);
    expect(s.now()).toBeGreaterThan(calibration.warmUpMs + RETRY_PAUSE_MS + calibration.timingMs);
    expect(s.now()).toBeLessThan(calibration.warmUpMs + RETRY_PAUSE_MS + calibration.timingMs + 5);
  });

  it(`keeps the default after ${ATTEMPTS} attempts whose samples never agree, pausing RETRY_PAUSE_MS and then twice that`, async () => {
    const s = standIn({ msPerRep: [0.03, 0.027], disturb: slowingFor(Infinity) });
    const choice = await calibrateWithRetries(s.module, s);
    expect(choice.tile).toBe('2x4');
    expect(s.module.currentTile()).toBe(0);
    expect(choice.calibration).toMatchObject({ attempts: ATTEMPTS, steady: false, rounds: MAX_ROUNDS, ratio: 1 });
    const pauses = RETRY_PAUSE_MS + 2 * RETRY_PAUSE_MS;
    expect(s.now()).toBeGreaterThan(choice.calibration.warmUpMs + pauses + choice.calibration.timingMs);
    expect(s.now()).toBeLessThan(choice.calibration.warmUpMs + pauses + choice.calibration.timingMs + 5);
  });

  it('makes one attempt where its samples agree, and says so', async () => {
    const s = standIn({ msPerRep: [0.03, 0.027] });
    const choice = await calibrateWithRetries(s.module, s);
    expect(choice.calibration.attempts).toBe(1);
    expect(choice.tile).toBe('6x2');
  });

  it('says "only" for a build with one tile, and times nothing', async () => {
    const s = standIn({ msPerRep: [0.03] });
    expect(await calibrateWithRetries(s.module, s)).toEqual({ tile: '2x4', chosenBy: 'only', calibration: null });
    expect(s.calls()).toBe(0);
  });
});

describe('tileChoice: one calibration a page, in the background, that no load waits for', () => {
  // Each test names a backend of its own: the page's calibrations are kept per backend.
  it("answers at once with the default tile, pending, and the calibration's choice later; the loads after share it", async () => {
    const s = standIn({ msPerRep: [1, 0.9] });
    const first = tileChoice(() => s.module, 'stand-in-a');
    expect(first.kernel).toEqual({ tile: '2x4', chosenBy: 'pending', calibration: null });
    expect(s.calls()).toBe(0); // nothing timed before the load has resolved
    const second = tileChoice(() => s.module, 'stand-in-a');
    expect(second.later).toBe(first.later);
    const chosen = await first.later;
    expect(chosen.chosenBy).toBe('calibrated');
    expect(Object.isFrozen(chosen) && Object.isFrozen(chosen.calibration)).toBe(true);
    const after = tileChoice(() => s.module, 'stand-in-a');
    expect(after).toEqual({ kernel: chosen, later: null });
    expect(after.kernel).toBe(chosen);
  });

  it('calibrates on whichever instance is live at each call, as a trap replaces it', async () => {
    const [a, b] = [standIn({ msPerRep: [1, 1] }), standIn({ msPerRep: [1, 1] })];
    let live = a;
    const { later } = tileChoice(() => live.module, 'stand-in-b');
    live = b;
    await later;
    expect(a.calls()).toBe(0);
    expect(b.calls()).toBeGreaterThan(0);
  });

  it('settles on the default tile, "default", when the calibration throws, and the next load tries again', async () => {
    const s = standIn({ msPerRep: [1, 0.9] });
    const broken = {
      ...s.module,
      calibrationProduct: () => {
        throw new WebAssembly.RuntimeError('unreachable');
      },
    };
    const { later } = tileChoice(() => broken, 'stand-in-c');
    expect(await later).toEqual({ tile: '2x4', chosenBy: 'default', calibration: null });
    const retry = tileChoice(() => s.module, 'stand-in-c');
    expect(retry.later).not.toBe(later);
    expect((await retry.later).chosenBy).toBe('calibrated');
  });

  it('names a tile the build has at once, and rejects one it lacks with a RangeError', () => {
    const s = standIn({ msPerRep: [1, 0.9] });
    expect(tileChoice(() => s.module, 'stand-in-d', '6x2')).toEqual({ kernel: { tile: '6x2', chosenBy: 'option', calibration: null }, later: null });
    expect(() => tileChoice(() => s.module, 'stand-in-d', '3x3')).toThrow(RangeError);
    expect(s.calls()).toBe(0);
  });
});

describe('the loader: the tile option, attn.kernel, and a healed instance keeping its tile', () => {
  it.each(BACKENDS)('$backend says which tile runs and how it was chosen, frozen', async (build) => {
    const attn = await loadAttention({ simd: build.simd });
    expect(Object.isFrozen(attn.kernel)).toBe(true);
    if (build.backend === 'wasm-relaxed') {
      // The page's first relaxed load (no other test of this file loads it before): the load did
      // not wait for the calibration, which runs in the background, the default tile until then.
      expect(attn.kernel).toEqual({ tile: '2x4', chosenBy: 'pending', calibration: null });
      const settled = await attn.kernelSettled;
      expect(attn.kernel).toBe(settled);
      expect(settled.chosenBy).toBe('calibrated');
      expect(['2x4', '6x2']).toContain(settled.tile);
      expect(Object.keys(settled.calibration.sampleMs)).toEqual(['2x4', '6x2']);
      expect(Object.isFrozen(settled.calibration.sampleMs)).toBe(true);
      // Every field KernelChoice.calibration declares (index.d.ts), and no other.
      expect(Object.keys(settled.calibration).sort()).toEqual([
        'attempts',
        'clockStepMs',
        'ratio',
        'reps',
        'rounds',
        'sampleMs',
        'steady',
        'timingMs',
        'warmUpMs',
      ]);
      expect(settled.calibration.attempts).toBeGreaterThanOrEqual(1);
      expect(settled.calibration.attempts).toBeLessThanOrEqual(ATTEMPTS);
      const { module } = await loadModule({ simd: 'relaxed' });
      expect(module.tileName(module.currentTile())).toBe(settled.tile);
      // Later loads of the page reuse the choice at once: the cached runtime, and one of their own.
      expect((await loadAttention({ simd: 'relaxed' })).kernel).toBe(settled);
      const uncached = await loadAttention({ simd: 'relaxed', wasmUrl: new URL('../../../web/wasm/attention-relaxed.wasm', import.meta.url) });
      expect(uncached.kernel).toBe(settled);
    } else {
      expect(attn.kernel).toEqual({ tile: build.backend === 'wasm-scalar' ? '4x2' : '2x4', chosenBy: 'only', calibration: null });
      expect(await attn.kernelSettled).toBe(attn.kernel);
    }
  });

  it('rejects a tile that is not a string with a TypeError, and one the build lacks with a RangeError naming its tiles', async () => {
    await expect(loadAttention({ simd: true, tile: 6 })).rejects.toThrow(TypeError);
    await expect(loadAttention({ simd: true, tile: 6 })).rejects.toThrow(/tile must be 'auto' or a tile's name/);
    await expect(loadAttention({ simd: true, tile: '6x2' })).rejects.toThrow(RangeError);
    await expect(loadAttention({ simd: true, tile: '6x2' })).rejects.toThrow("the wasm-simd build's tiles (2x4), got '6x2'");
    await expect(loadAttention({ simd: true, tile: '' })).rejects.toThrow(RangeError);
    // The module still loads and works afterwards.
    const attn = await loadAttention({ simd: true, tile: '2x4' });
    expect(attn.kernel).toEqual({ tile: '2x4', chosenBy: 'only', calibration: null });
  });

  it('reads no tile from a polluted prototype', async () => {
    Object.prototype.tile = '6x2';
    try {
      const attn = await loadAttention({ simd: true });
      expect(attn.kernel.tile).toBe('2x4');
    } finally {
      delete Object.prototype.tile;
    }
  });

  const relaxed = backendNamed('wasm-relaxed');
  it.runIf(relaxed)('a named tile is set on the module, and a healed instance after a trap runs it too', async () => {
    for (const [tile, index] of [
      ['6x2', 1],
      ['2x4', 0],
    ]) {
      const attn = await loadAttention({ simd: 'relaxed', tile });
      expect(attn.kernel).toEqual({ tile, chosenBy: 'option', calibration: null });
      const { module: before } = await loadModule({ simd: 'relaxed', tile });
      expect(before.currentTile()).toBe(index);
      before.stackRestore(0); // the next call traps (hardening.test.js)
      expect(() => attn.maskedSoftmax({ data: Float32Array.of(1, 2), shape: [2] })).toThrow(/trapped/);
      attn.maskedSoftmax({ data: Float32Array.of(1, 2), shape: [2] });
      const { module: after } = await loadModule({ simd: 'relaxed', tile });
      expect(after).not.toBe(before);
      expect(after.currentTile()).toBe(index);
    }
  });

  // The calibration pauses on unref'd timers in Node (a script that never asks does not wait for it
  // at exit); awaiting kernelSettled must hold the process open, or a top-level await ends it
  // unsettled, with exit code 13 and nothing printed.
  it.runIf(relaxed && typeof process !== 'undefined' && process.versions?.node)(
    'a Node script that awaits kernelSettled at its top level gets the choice',
    async () => {
      const { execFileSync } = await import('node:child_process');
      const index = new URL('../../../web/src/index.js', import.meta.url).href;
      const script = `const { loadAttention } = await import(${JSON.stringify(index)});
      const attn = await loadAttention({ simd: 'relaxed' });
      console.log(attn.kernel.chosenBy, (await attn.kernelSettled).chosenBy);`;
      const flags = process.execArgv.filter((a) => a === '--experimental-wasm-relaxed-simd');
      const out = execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(out.trim()).toBe('pending calibrated');
    },
  );

  it.runIf(relaxed)('a pool runs the tile chosen on the calling thread, after the calibration has settled', async () => {
    const pool = await loadAttention({ simd: 'relaxed', tile: '6x2', threads: 2 });
    try {
      expect(pool.kernel.tile).toBe('6x2');
    } finally {
      pool.dispose();
    }
    const calibrated = await loadAttention({ simd: 'relaxed', threads: 2 });
    try {
      expect(calibrated.kernel.chosenBy).toBe('calibrated');
      expect(await calibrated.kernelSettled).toBe(calibrated.kernel);
    } finally {
      calibrated.dispose();
    }
  });
});

/** Seeded values in [-1, 1), with some exactly 0, as a Float32Array of `n`. */
function values(n, seed) {
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = i % 17 === 0 ? 0 : (s >>> 8) / 8388608 - 1;
  }
  return out;
}

/** Every Float32Array field of a result (nested), by path: the bits compared. */
function floatFields(result, path = '') {
  if (result instanceof Float32Array) return [[path, result]];
  if (result === null || typeof result !== 'object') return [];
  return Object.entries(result).flatMap(([key, value]) => floatFields(value, `${path}.${key}`));
}

function expectSameBits(a, b, what) {
  const fa = floatFields(a);
  const fb = new Map(floatFields(b));
  expect(fa.length, what).toBeGreaterThan(0);
  for (const [path, x] of fa) {
    const y = fb.get(path);
    expect(y, `${what}${path}`).toBeInstanceOf(Float32Array);
    expect(new Uint32Array(y.buffer, y.byteOffset, y.length), `${what}${path}`).toEqual(new Uint32Array(x.buffer, x.byteOffset, x.length));
  }
}

describe.runIf(backendNamed('wasm-relaxed'))('the two tiles of the relaxed build give the same bits', () => {
  // Tq and Tk: one block of 64 and a remainder that is no multiple of 6 or 2 (rows), d and dv no
  // multiple of 8 floats (columns: full tiles, one vector, single floats), and d = 64 (the fixed
  // row stride's tiles); causal and GQA take other block paths.
  const shapes = [
    { B: 1, H: 2, Hkv: 2, Tq: 70, Tk: 77, d: 40, dv: 24 },
    { B: 2, H: 4, Hkv: 2, Tq: 13, Tk: 131, d: 64, dv: 64, causal: 'bottom-right' },
    { B: 1, H: 1, Hkv: 1, Tq: 127, Tk: 65, d: 9, dv: 7 },
  ];
  it.each(shapes)('sdpa forward and backward at B=$B H=$H Hkv=$Hkv Tq=$Tq Tk=$Tk d=$d dv=$dv', async (s) => {
    const [tall, wide] = [await loadAttention({ simd: 'relaxed', tile: '6x2' }), await loadAttention({ simd: 'relaxed', tile: '2x4' })];
    const q = { data: values(s.B * s.H * s.Tq * s.d, 1), shape: [s.B, s.H, s.Tq, s.d] };
    const k = { data: values(s.B * s.Hkv * s.Tk * s.d, 2), shape: [s.B, s.Hkv, s.Tk, s.d] };
    const v = { data: values(s.B * s.Hkv * s.Tk * s.dv, 3), shape: [s.B, s.Hkv, s.Tk, s.dv] };
    const dO = { data: values(s.B * s.H * s.Tq * s.dv, 4), shape: [s.B, s.H, s.Tq, s.dv] };
    const options = s.causal ? { causal: s.causal } : {};
    const run = (attn) => ({
      forward: attn.scaledDotProductAttention(q, k, v, options),
      backward: attn.scaledDotProductAttentionBackward(q, k, v, dO, options),
    });
    expectSameBits(run(tall), run(wide), 'sdpa');
  });

  it('a multi-head layer forward and backward, whose projections are the large products (rows 13: two 6-row tiles and one)', async () => {
    const [tall, wide] = [await loadAttention({ simd: 'relaxed', tile: '6x2' }), await loadAttention({ simd: 'relaxed', tile: '2x4' })];
    const x = { data: values(2 * 13 * 36, 5), shape: [2, 13, 36] };
    const dY = { data: values(2 * 13 * 36, 6), shape: [2, 13, 36] };
    const run = (attn) => {
      const layer = attn.multiHeadAttention({ dModel: 36, heads: 4, kvHeads: 2, seed: 7 });
      return { forward: layer.forward(x), backward: layer.backward(x, dY) };
    };
    expectSameBits(run(tall), run(wide), 'layer');
  });
});
