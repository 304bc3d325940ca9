// Head scores on a probe batch, as tools/model/train_induction.py computes them from a model's
// attentions (B, L, H, T, T) (model.forward(tokens, { trace: true }).trace.attentions):
//   previous-token score of head (l, h): the mean weight from query t to key t - 1, over the batch
//     and t = 1 .. T - 1 (Olsson et al.'s previous-token heads; chance ~ the mean of 1 / (t + 1));
//   induction (prefix-matching) score: on sequences that repeat with period P (inductionTask's
//     periods), the mean weight from query t >= P to key t - P + 1, the token that followed the
//     earlier occurrence of the query's token.
// -> { previousToken: number[L][H], induction: number[L][H] }

import { tensorOf } from './tasks.js';

// Where a head counts as a previous-token or an induction head. Chance (uniform causal attention)
// is ~0.12 for the previous-token score and ~0.07 for the induction score at T = 24; PyTorch's
// trained model (examples/induction/training.json) has 0.44 and 0.54-0.58: the thresholds sit between.
export const HEAD_THRESHOLDS = Object.freeze({ previousToken: 0.3, induction: 0.4 });

/** attentions (B, L, H, T, T), periods (B) -> the scores of every layer and head. */
export function headScores(attentions, periods) {
  const fn = 'headScores';
  const [B, L, H, T, Tk] = tensorOf(fn, 'attentions', attentions, 5);
  if (Tk !== T) throw new RangeError(`${fn}: attentions must be (B, L, H, T, T) (self-attention), got shape [${attentions.shape}]`);
  if (periods === null || typeof periods !== 'object' || typeof periods.length !== 'number') {
    throw new TypeError(`${fn}: periods must be an array or typed array of B = ${B} periods, got ${periods === null ? 'null' : typeof periods}`);
  }
  if (periods.length !== B) throw new RangeError(`${fn}: periods must hold one period per sequence, B = ${B}, got ${periods.length}`);
  for (let b = 0; b < B; b++) {
    if (!Number.isInteger(periods[b]) || periods[b] < 1 || periods[b] >= T)
      throw new RangeError(`${fn}: periods[${b}] must be an integer in [1, T) = [1, ${T}), got ${String(periods[b])}`);
  }
  const w = attentions.data;
  const previousToken = Array.from({ length: L }, () => new Array(H).fill(0));
  const induction = Array.from({ length: L }, () => new Array(H).fill(0));
  let inductionRows = 0;
  for (let b = 0; b < B; b++) inductionRows += Math.max(0, T - periods[b]);
  for (let b = 0; b < B; b++) {
    const P = periods[b];
    for (let l = 0; l < L; l++) {
      for (let h = 0; h < H; h++) {
        const head = ((b * L + l) * H + h) * T * T; // row t, key j at head + t T + j
        let previous = 0;
        for (let t = 1; t < T; t++) previous += w[head + t * T + t - 1];
        previousToken[l][h] += previous / (B * (T - 1));
        let matched = 0;
        for (let t = P; t < T; t++) matched += w[head + t * T + t - P + 1];
        induction[l][h] += inductionRows === 0 ? 0 : matched / inductionRows;
      }
    }
  }
  return { previousToken, induction };
}
