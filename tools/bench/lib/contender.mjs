// One benchmark contender: what it is, one timed call, and its result in attention-lab's layout.
//   library, form  e.g. 'onnxruntime-web', 'Attention (opset 23)'
//   threads        threads the contender computes with
//   run()          one call (sync or async), its raw outputs
//   time()         ms of one call (the work a user would time: inputs from JS arrays in, results out)
//   result()       that call's outputs as Float32Arrays in our layout (B, H, T, d) ..., for the check
//   release()      frees sessions or workers
import { timeCall } from '../../../web/measure/timing.js';

/**
 * run: the call (sync or async) returning its raw outputs; toOurs(raw) turns them into a list of
 * Float32Arrays in our layout, outside the timed call.
 */
export function contender({ library, form, threads = 1 }, run, toOurs = (raw) => raw, release = async () => {}) {
  return {
    library,
    form,
    threads,
    run,
    time: () => timeCall(run),
    result: async () => toOurs(await run()),
    release,
  };
}

/**
 * contender whose every time() also records a reading taken around that call in contender[key]:
 * begin() just before the call, end(begun) just after (both untimed), end's result the sample.
 */
export function withSamplesAround(contender, key, begin, end) {
  const samples = [];
  return {
    ...contender,
    [key]: samples,
    time: async () => {
      const begun = begin();
      const ms = await contender.time();
      samples.push(end(begun));
      return ms;
    },
  };
}

/** A contender that could not be built (the table says why instead of timing it). */
export function unavailable({ library, form, threads = 1 }, error) {
  return { library, form, threads, error: String(error?.message ?? error).split('\n')[0].slice(0, 160) };
}

/** Deterministic values in [-1, 1): a sine hash, so every run times the same numbers. */
export const fill = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) % 1);

/** The (T, T) additive causal mask of the peers' graphs: 0 where j <= i, -Infinity above the diagonal. */
export function additiveCausalMask(T) {
  const mask = new Float32Array(T * T);
  for (let i = 0; i < T; i++) mask.fill(-Infinity, i * T + i + 1, (i + 1) * T);
  return mask;
}
