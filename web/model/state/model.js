// The explorer's state: one plain, JSON-serialisable object that the URL holds whole (url.js),
// that every control edits through a store (store.js) and that compute/ turns into matrices.
//
// {
//   version: 1,
//   preset: 'seed-004',            the preset it started from (a label; the values below rule)
//   source: 'self' | 'qkv',        self: Q = X Wq, K = X Wk, V = X Wv per head (batch of one);
//                                  qkv: Q, K, V given directly, with a batch (d2l's example)
//   tokens: string[],              labels of the query rows (self: of the keys too)
//   keyTokens: string[] | null,    qkv: labels of the keys
//   x: number[][],                 self: X (T, d_in)
//   wq, wk: number[][][],          self: one (d_in, d_q) matrix per head
//   wv: number[][][],              self: one (d_in, d_v) matrix per head
//   wo: number[][] | null,         self: the output projection W^O (H d_v, d_in): the heads' outputs
//                                  side by side, back to the model's width; null: none (the output is
//                                  the heads' outputs side by side, seed 004's single head as printed)
//   q: number[][][],               qkv: (B, Tq, d);  k: (B, Tk, d);  v: (B, Tk, dv)
//   scoring: 'dot' | 'scaled-dot' | 'general' | 'additive' | 'concat',
//   compare: Scoring[],            more scorings computed side by side (d2l: additive vs dot)
//   params: { general: { w (d, d) }, additive: { wq (d, h), wk (d, h), wv (h) }, concat: { w (2d) } },
//   hidden: number,                additive's h
//   scale: number | null,          null: the scoring's default (1/sqrt(d) for scaled-dot, 1 otherwise)
//   temperature: number,           the scores are multiplied by scale / temperature
//   causal: 'none' | 'top-left' | 'bottom-right',
//   validLens: null | { per: 'batch', lens: number[] (B) } | { per: 'row', lens: number[][] (B, Tq) },
//   maskedCells: [b, i, j][],      single score cells masked by clicking them
//   maskFill: 'zero' | 'd2l',      a fully masked row: zero weights (default) or d2l's -1e6 fill
//   window: [left, right],         sliding window (FlashAttention's convention), -1 = no limit
//   alibi: 'off' | 'paper' | number[],   ALiBi biases: the paper's slopes for the state's heads, or
//                                  one given slope per head (H finite positive numbers; a list of
//                                  another length, as after a change of heads, turns ALiBi off)
//   rope: 'off' | 'halves' | 'interleaved',   rotary positions on Q and K ('self' states, even d)
//   ropeBase: number,              RoPE's base (10000 in the paper)
//   kvHeads: number,               grouped heads ('self'): a divisor of H; head h uses the K, V
//                                  weights of kv head floor(h kvHeads / H) (wk, wv stay per head,
//                                  equal within a group, so every head reads as before)
//   view: 'matrix' | 'heatmap' | 'links',
//   head: number,                  the head the pipeline shows
//   seed: number,                  seeds values made up for new cells and missing parameters
//   backward: {                    the loss and the training (stages/backward.js, site/features/train/panel.js)
//     target: number[][][],        Y (B, Tq, d_out): what the output should be (the layer's
//                                  output: through W^O when there is one; d_out in sizesOf)
//     loss: 'half-sum' | 'mean',   L = 1/2 sum (O - T)^2, or L = mean (O - T)^2
//     learningRate: number,        SGD step size
//     stepsPerSecond: number,      how fast Train steps
//   },
// }
// The explorer adds its page-only parts (checks, speed) in web/site/page-state.js.
//
// Numbers are kept as typed (0.1 stays 0.1 in the URL); the core sees them as float32.

export const SCORINGS = ['dot', 'scaled-dot', 'general', 'additive', 'concat'];
export const CAUSAL_MODES = ['none', 'top-left', 'bottom-right'];
export const VIEWS = ['matrix', 'heatmap', 'links'];
export const MASK_FILLS = ['zero', 'd2l'];
export const LOSSES = ['half-sum', 'mean'];
export const ALIBI_MODES = ['off', 'paper'];
export const ROPE_MODES = ['off', 'halves', 'interleaved'];

/**
 * A slope a state's custom ALiBi list may hold: > 0 and finite as the core stores it (float32),
 * with slope (Tq + Tk) finite there at the largest sizes, as the API requires (boundary/masks.js),
 * so a conformed state never makes the API throw. A slope that rounds to 0 in float32 is refused
 * too: the core would see no bias at all.
 */
export function isAlibiSlope(m) {
  return typeof m === 'number' && m > 0 && Math.fround(m) > 0 && Math.fround(m) * 2 * LIMITS.tokens[1] < 3.4e38;
}

/** d2l's masked_softmax fill value: a fully masked row becomes uniform instead of zero. */
export const D2L_FILL = -1e6;

/** Size limits of the controls: the page recomputes everything per edit, so it stays small. */
export const LIMITS = {
  tokens: [1, 16],
  width: [1, 12],
  heads: [1, 6],
  batch: [1, 4],
  hidden: [1, 16],
  stepsPerSecond: [1, 60],
  window: [-1, 16],
  ropeBase: [1, 1e6],
};

/** The sizes a state's arrays imply (conform.js keeps them consistent). */
export function sizesOf(state) {
  if (state.source === 'qkv') {
    const [first] = state.q;
    return {
      B: state.q.length,
      Tq: first.length,
      Tk: state.k[0].length,
      d: first[0].length,
      dv: state.v[0][0].length,
      H: 1,
      h: state.hidden,
    };
  }
  return {
    B: 1,
    Tq: state.x.length,
    Tk: state.x.length,
    dIn: state.x[0].length,
    d: state.wq[0][0].length,
    dv: state.wv[0][0].length,
    H: state.wq.length,
    h: state.hidden,
    dOut: state.wo ? state.x[0].length : state.wq.length * state.wv[0][0].length,
  };
}

/** The first head of the group (kv head) that head h belongs to, with kvHeads of H heads. */
export function groupLeader(h, H, kvHeads) {
  const size = H / kvHeads;
  return Math.floor(h / size) * size;
}

/** The scorings a state computes: the chosen one first, then the compared ones. */
export function scoringsOf(state) {
  return [state.scoring, ...state.compare.filter((s) => s !== state.scoring)];
}
