// The state as the API's attention layers, when one computes it: the options a selfAttention
// layer (one head) or a multiHeadAttention layer (every head, grouped K and V, W^O) needs to give
// the same numbers as compute()'s runs. The page's other paths (the output through W^O, the
// backward, the decode stepper) check themselves against these layers, or run on them.
import { fromNested } from './tensors.js';
import { alibiOf, ropeOptions, windowOption } from './positions.js';
import { scoringOptions } from './run.js';
import { groupLeader, sizesOf } from '../state/model.js';

const isDotProduct = (scoring) => scoring === 'dot' || scoring === 'scaled-dot';

/** causal, window, alibi (the slopes given: per head of the layer), rope: the layers' options. */
function positionsOf(state, slopes) {
  const window = windowOption(state);
  const rope = ropeOptions(state);
  return {
    ...(state.causal === 'none' ? {} : { causal: state.causal }),
    ...(window ? { window } : {}),
    ...(slopes ? { alibi: slopes } : {}),
    ...(rope ? { rope } : {}),
  };
}

/** Masks a layer has no option for: cells masked by hand, d2l's fill. */
const handMasked = (state) => state.maskedCells.length > 0 || state.maskFill !== 'zero';

/** forward()'s options: validLens (a 'self' state has a batch of one). */
export function forwardOptions(state) {
  return { trace: false, ...(state.validLens ? { validLens: state.validLens.lens } : {}) };
}

/**
 * selfAttention's options for head h of a 'self' state and one scoring (its scale, the head's ALiBi
 * slope), or null when no such layer computes it (a scoring other than the dot products).
 */
export function selfLayerOptions(state, h, scoring) {
  if (state.source !== 'self' || !isDotProduct(scoring) || handMasked(state)) return null;
  const d = state.wq[h][0].length;
  const slopes = alibiOf(state);
  return {
    wq: fromNested(state.wq[h]),
    wk: fromNested(state.wk[h]),
    wv: fromNested(state.wv[h]),
    scale: scoringOptions(state, scoring, d).scale,
    ...positionsOf(state, slopes && [slopes[h]]),
  };
}

/**
 * multiHeadAttention's options for the whole 'self' state and one scoring, or null when that layer
 * does not compute it: it needs W^O, d_in = H d = H d_v, and its own scale 1/sqrt(d) (scaled-dot,
 * no scale or temperature set). Wq (d_in, H d): the heads' matrices side by side; Wk, Wv
 * (d_in, Hkv d): each group's shared matrix.
 */
export function multiHeadOptions(state, scoring) {
  if (state.source !== 'self' || !state.wo || handMasked(state)) return null;
  const { dIn, d, dv, H } = sizesOf(state);
  if (scoring !== 'scaled-dot' || state.scale !== null || state.temperature !== 1 || d !== dv || dIn !== H * d) return null;
  const leaders = Array.from({ length: state.kvHeads }, (_, g) => groupLeader(g * (H / state.kvHeads), H, state.kvHeads));
  const sideBySide = (mats) => fromNested(mats[0].map((_, i) => mats.flatMap((m) => m[i])));
  return {
    dModel: dIn,
    heads: H,
    kvHeads: state.kvHeads,
    wq: sideBySide(state.wq),
    wk: sideBySide(leaders.map((h) => state.wk[h])),
    wv: sideBySide(leaders.map((h) => state.wv[h])),
    wo: fromNested(state.wo),
    ...positionsOf(state, alibiOf(state)),
  };
}

/** Runs fn(layer) on a fresh layer of `kind` ('selfAttention' or 'multiHeadAttention'), then drops it. */
export function withLayer(attn, kind, options, fn) {
  const layer = attn[kind](options);
  try {
    return fn(layer);
  } finally {
    layer.dispose();
  }
}
