// Chooses the register tile of the products (cpp/src/kernels_gemm.cpp) for a build that has more
// than one: the relaxed build has 2 x 4, and 6 x 2, whose 12 accumulators hide the FMA's latency
// where 8 do not (on an Intel Xeon, family 6 model 207: 1.09x on the products, 1.07x on the
// forward). Both give the same bits (each element's sum runs over k in the same order), so the
// choice is only about speed. It cannot be told from the browser (no CPU model there), so it is
// timed once per page, on the products of one block of the fused forward (calibrationProduct), in
// the background after the first load (tileChoice): the load resolves with the default tile, and
// the chosen one runs from when the calibration settles (attn.kernelSettled). Waiting for it made
// the first relaxed load take 121-248 ms on the Xeon against 15-32 ms now; the thread is held at
// most 9-17 ms at a time while it runs (the timing, 2 below; Node 20, 5 loads each):
//   1. warm-up: the engine first runs baseline code (V8's Liftoff, about a tenth of the speed) and
//      compiles optimized code in the background once a function is hot; timing the baseline
//      would compare nothing. Short calls, waiting in between, until the rate has jumped JUMP-fold
//      and then not risen for STABLE_MS (the two products are two functions, optimized one after
//      the other: a wait of 3 checks, about 20 ms, once fell between them in a bench run and timed
//      both tiles at 1.54 ms; in a Chromium page on the Xeon a lull of 41 ms fell between two
//      steps of the tier-up, hence 80), or WARM_UP_LIMIT_MS; an engine whose first code is its best
//      shows no jump and waits that long. The rate it jumps from is read after one call of each
//      tile, which in a lazily compiling engine also compiles.
//   2. timing: rounds, each timing every tile once (the order turned each round), SAMPLE_MS a
//      sample, or SAMPLE_TICKS steps of the clock where it is coarser: a page that is not
//      cross-origin isolated reads performance.now() in steps of 0.1 ms (Chromium 156; jittered),
//      and there samples sized from a rate read over 2 products lasted 0.4 ms, so that the choice
//      read 2x4 0.40 against 6x2 0.50, whole steps. Another job on the core only ever adds time, so
//      each tile's fastest sample is its speed (and a sample timed before an optimized function
//      arrived drops out). The rounds stop once every tile's two fastest samples agree within
//      STEADY (or two steps of the clock), at least MIN_ROUNDS, at most MAX_ROUNDS: on a quiet
//      machine 2 rounds, 20 ms of 5 ms samples in a page (6 ms in Node), a round at a time between
//      pauses; while another job disturbs the samples, up to 16 rounds (160 ms in a page). On that
//      Xeon, in a quiet hour the loads read 6 x 2 at 0.90-0.92 of 2 x 4's time; in a noisy one (the
//      probe at 21-40 GFLOP/s from one call to the next) at 0.966-0.974, as if the pipes, shared
//      with another job, left nothing for more chains to hide.
//   3. choice: another tile only where it is at least SWITCH_GAIN faster than the build's default,
//      and more than two steps of the clock faster, and only where the samples were steady (every
//      tile's two fastest agree). Samples that never agreed in MAX_ROUNDS keep the default: in a
//      Chromium page on the Xeon such loads read 6 x 2 at 0.529 and 0.953 of 2 x 4, in Node at 0.76
//      and 0.97, while the readings rose round after round (the engine still tiering the tiles'
//      functions up, or another job): evidence for no tile, and a wrong tile costs speed.
//   4. retries (calibrateWithRetries): samples that never agreed are timed again after a pause,
//      RETRY_PAUSE_MS, then twice that, ATTEMPTS in all, without the warm-up (the code is
//      optimized by then). On the Xeon, where the core's speed changes from one second to the next
//      (a calibration every 0.8 s for 60 s read steady and unsteady in turn), 6 rounds at most were
//      steady in 28 of 71 calibrations and 16 in 46 of 71 (alternating in one process, Node 20);
//      16 rounds and up to 2 retries 250 and 500 ms later in 68 of 71 (against 47 of 71 without
//      the retries, alternating), and chose 6 x 2 in 39 of them against 34. Where the samples
//      agreed while the core ran at full speed, 6 x 2 read 0.87-0.94 of 2 x 4's time, and within
//      0.95-1.05 of it while the core was slowed, so an unsteady calibration mostly cost 6 x 2.

export const WARM_UP_LIMIT_MS = 300;
export const JUMP = 3;
export const STABLE_MS = 80;
export const MIN_ROUNDS = 2;
export const MAX_ROUNDS = 16;
export const STEADY = 0.02; // two samples this close (relative) read the same speed
export const SAMPLE_MS = 1.5;
export const SAMPLE_TICKS = 50; // a sample spans at least this many steps of the clock
export const RATE_TICKS = 10; // and a reading of the rate this many
export const SWITCH_GAIN = 0.01; // a tie keeps the default; a wrong pick costs speed only, never bits
export const ATTEMPTS = 3; // calibrations in all, while the samples never agree
export const RETRY_PAUSE_MS = 250; // before the second attempt; twice that before the third

// Node: an unref'd timer, so that a script that has finished does not wait for the calibration.
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms)?.unref?.());

/**
 * The tile choice of `module`, an instance of a build, the tile left set on the module:
 * { tile, chosenBy, calibration }. chosenBy 'only' (the build has one tile; calibration null) or
 * 'calibrated', with calibration { sampleMs: { [tile name]: its fastest sample, ms }, ratio: the
 * chosen tile's over the default's (1 when the default was kept), reps: calls of the product in a
 * sample, warmUpMs, rounds: how many rounds were timed, steady: whether every tile's two fastest
 * samples agreed (if not, the default is kept), timingMs: the time of all the samples,
 * clockStepMs: the clock's step }. `now` and `wait` are the clock and the pause,
 * given by tests; `warmUp` false skips step 1, for a module whose optimized code has arrived.
 */
export async function calibrateTile(module, { now = () => performance.now(), wait = pause, warmUp = true } = {}) {
  const count = module.tileCount();
  if (count < 2) return { tile: module.tileName(0), chosenBy: 'only', calibration: null };
  const tiles = Array.from({ length: count }, (_, t) => t);
  const timeOnce = (tile, reps) => {
    module.setTile(tile);
    const start = now();
    module.calibrationProduct(reps);
    return now() - start;
  };

  const step = clockStep(now);
  // Products a ms, over enough of them to span RATE_TICKS steps of the clock.
  const rateOf = () => {
    for (let reps = 2; ; reps *= 2) {
      const ms = timeOnce(0, reps);
      if (ms >= RATE_TICKS * step || reps >= 4096) return reps / Math.max(ms, step);
    }
  };

  // 1. Warm-up: both tiles run in the same functions, so one tile's calls warm them all.
  const warmStart = now();
  // Not from the very first call: that one also compiles the baseline code (an engine compiling
  // lazily, as Chromium does), and read 0.34-0.71 products a ms in a page on the Xeon against
  // 1.1-1.4 for the baseline code after it, so that the baseline alone passed for a jump.
  for (const tile of tiles) timeOnce(tile, 1);
  const first = rateOf();
  let rate = first;
  let lastRise = now();
  while (warmUp && now() - warmStart < WARM_UP_LIMIT_MS) {
    for (let i = 0; i < 20; i++) timeOnce(tiles[i % count], 1);
    await wait(5);
    const latest = rateOf();
    if (latest > 1.15 * rate) {
      rate = latest;
      lastRise = now();
    } else if (rate >= JUMP * first && now() - lastRise >= STABLE_MS) {
      break;
    }
  }
  const warmUpMs = now() - warmStart;

  // 2. Timing: reps so one sample lasts about SAMPLE_MS (or SAMPLE_TICKS steps) at the warmed rate.
  const targetMs = Math.max(SAMPLE_MS, SAMPLE_TICKS * step);
  let reps = Math.max(1, Math.round(targetMs * rate));
  let samples = tiles.map(() => []);
  let timingMs = 0;
  let resized = false;
  // A tile's two fastest samples agree: nothing slowed both, so the faster of them is its speed.
  const steady = (times) => {
    const [a, b] = [...times].sort((x, y) => x - y);
    return b - a <= Math.max(STEADY * a, 2 * step);
  };
  let rounds = 0;
  let steadySamples = false;
  while (rounds < MAX_ROUNDS && !steadySamples) {
    const order = rounds % 2 ? [...tiles].reverse() : tiles;
    for (const tile of order) {
      const ms = timeOnce(tile, reps);
      samples[tile].push(ms);
      timingMs += ms;
    }
    rounds += 1;
    // The warm-up's rate can read low (in a page on a 2-core Xeon its readings spanned 0.8-33
    // products a ms, so samples of 33-47 reps lasted 11-16 steps where 50 were meant): samples
    // under half the target are lengthened to it, and the rounds start again, once.
    const shortest = resized ? Infinity : Math.min(...samples.flat());
    if (shortest < targetMs / 2) {
      reps = Math.ceil((reps * targetMs) / Math.max(shortest, step));
      samples = tiles.map(() => []);
      rounds = 0;
      resized = true;
    }
    steadySamples = rounds >= MIN_ROUNDS && samples.every(steady);
    await wait(0);
  }

  // 3. Choice: the fastest tile by its fastest sample over tile 0's, where the samples were steady.
  const fastest = samples.map((times) => Math.min(...times));
  const ratios = tiles.map((tile) => fastest[tile] / Math.max(fastest[0], 1e-9));
  const gain = Math.max(SWITCH_GAIN, (2 * step) / Math.max(fastest[0], 1e-9));
  let chosen = 0;
  if (steadySamples) for (const tile of tiles) if (ratios[tile] < 1 - gain && ratios[tile] < ratios[chosen]) chosen = tile;
  module.setTile(chosen);
  const sampleMs = Object.fromEntries(tiles.map((tile) => [module.tileName(tile), fastest[tile]]));
  return {
    tile: module.tileName(chosen),
    chosenBy: 'calibrated',
    calibration: { sampleMs, ratio: ratios[chosen], reps, warmUpMs, rounds, steady: steadySamples, timingMs, clockStepMs: step },
  };
}

/**
 * calibrateTile, again after a pause while its samples never agree (step 4 above): at most
 * ATTEMPTS calibrations, the second RETRY_PAUSE_MS after the first (250 ms), the third twice that
 * after the second (500 ms), the retries without the warm-up. -> the last one's choice, its
 * calibration with attempts (how many ran), timingMs (all their samples' time) and warmUpMs (the
 * first one's, the only warm-up).
 */
export async function calibrateWithRetries(module, { now = () => performance.now(), wait = pause } = {}) {
  let choice = await calibrateTile(module, { now, wait });
  if (choice.calibration === null) return choice;
  const { warmUpMs } = choice.calibration;
  let timingMs = choice.calibration.timingMs;
  let attempts = 1;
  while (!choice.calibration.steady && attempts < ATTEMPTS) {
    await wait(attempts * RETRY_PAUSE_MS);
    choice = await calibrateTile(module, { now, wait, warmUp: false });
    timingMs += choice.calibration.timingMs;
    attempts += 1;
  }
  return { ...choice, calibration: { ...choice.calibration, warmUpMs, timingMs, attempts } };
}

/**
 * The step of the clock `now`, ms: the smallest rise seen over 3 changes of its reading (about
 * 1e-4 in Node; 0.1 in a page that is not cross-origin isolated). A clock that does not move while
 * read (a test's) counts as 1e-3.
 */
function clockStep(now) {
  let step = Infinity;
  let last = now();
  for (let changes = 0, reads = 0; changes < 3 && reads < 100_000; reads++) {
    const t = now();
    if (t > last) {
      step = Math.min(step, t - last);
      last = t;
      changes += 1;
    }
  }
  return Number.isFinite(step) ? step : 1e-3;
}

const calibrated = new Map(); // backend -> Promise<frozen choice>: one calibration a page, never rejected
const settled = new Map(); // backend -> its frozen choice, once the calibration has finished

const frozen = (choice) =>
  Object.freeze({
    ...choice,
    calibration: choice.calibration && Object.freeze({ ...choice.calibration, sampleMs: Object.freeze({ ...choice.calibration.sampleMs }) }),
  });

/**
 * The loader's tile choice for a runtime of `backend` whose live module live() returns:
 * { kernel, later }. kernel is the frozen { tile, chosenBy, calibration } to run now: the tile
 * named by `tileOption` (a RangeError if the build lacks it; later null), or this page's
 * calibration of the backend once it has finished (later null). Before that, kernel is the build's
 * default tile, chosenBy 'pending', and later the Promise of the calibration's choice: the first
 * load starts it, in the background, so that no load waits for the warm-up (62-135 ms on the
 * Xeon); the loads after it share it. A calibration that fails (a trap) settles on the default
 * tile, chosenBy 'default', and the next load of the page tries again.
 */
export function tileChoice(live, backend, tileOption) {
  const module = live();
  const names = Array.from({ length: module.tileCount() }, (_, t) => module.tileName(t));
  if (tileOption !== undefined && tileOption !== 'auto') {
    if (!names.includes(tileOption)) {
      throw new RangeError(`loadAttention: tile must be 'auto' or one of the ${backend} build's tiles (${names.join(', ')}), got '${tileOption}'`);
    }
    return { kernel: frozen({ tile: tileOption, chosenBy: names.length > 1 ? 'option' : 'only', calibration: null }), later: null };
  }
  if (settled.has(backend)) return { kernel: settled.get(backend), later: null };
  if (!calibrated.has(backend)) calibrated.set(backend, calibrateInBackground(live, backend, names[0]));
  return { kernel: frozen({ tile: names[0], chosenBy: 'pending', calibration: null }), later: calibrated.get(backend) };
}

/**
 * calibrateTile on whichever instance is live at each call (a trap replaces it) -> Promise<frozen
 * choice>, never rejected: a failure settles on `defaultTile`, named before anything can trap.
 */
async function calibrateInBackground(live, backend, defaultTile) {
  const module = {
    tileCount: () => live().tileCount(),
    tileName: (t) => live().tileName(t),
    setTile: (t) => live().setTile(t),
    calibrationProduct: (reps) => live().calibrationProduct(reps),
  };
  try {
    await pause(0); // the load resolves first
    const choice = frozen(await calibrateWithRetries(module));
    settled.set(backend, choice);
    return choice;
  } catch {
    calibrated.delete(backend);
    return frozen({ tile: defaultTile, chosenBy: 'default', calibration: null });
  }
}
