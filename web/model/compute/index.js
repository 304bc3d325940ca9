// compute(attn, state): every stage of the state's attention through the public API.
//   {
//     sizes,                    sizesOf(state)
//     x: Tensor | null          (1, T, d_in) for 'self' states
//     heads: [{ wq?, wk?, wv?, q, k, v, runs: [run per scoring], masks, slope?, bias?, projected? }]
//                               (run.js; q, k rotated when RoPE is on, projected: before it;
//                               masks: the mask options with this head's ALiBi slope; bias: its ALiBi bias)
//     projected: [run per scoring] | null   'self' states: the heads' outputs side by side and
//                               through W^O (output-projection.js)
//     visible: Uint8Array       (B, Tq, Tk): 1 where key j is visible from query i
//     masks                     the API's mask options of the state (mask-options.js)
//     backward                  when asked: the backward pass (backward.js), or { error }
//     ms: number                time taken
//   }
// The stages registry (web/model/stages/registry.js) picks tensors out of this object.
import { scoringsOf, sizesOf } from '../state/model.js';
import { maskOptions, visibilityOptions } from './mask-options.js';
import { alibiBias, alibiOf, rotateHead } from './positions.js';
import { outputProjection } from './output-projection.js';
import { givenHead, projectHeads } from './projections.js';
import { attentionRun } from './run.js';
import { fromNested, zeros } from './tensors.js';

/** Which keys each query sees, decided by the core's mask semantics: softmax of zeros is > 0 exactly there. */
function visibility(attn, state, { B, Tq, Tk }) {
  const uniform = attn.maskedSoftmax(zeros([B, Tq, Tk]), visibilityOptions(state));
  return Uint8Array.from(uniform.data, (p) => (p > 0 ? 1 : 0));
}

/**
 * options.backward: the backward pass to run too, backwardPass of ./backward.js (the explorer's
 * gradient bands; figures only when they show them). Passed in, not imported, so a page that
 * never shows a gradient never loads its code.
 */
export function compute(attn, state, { backward = null } = {}) {
  const started = performance.now();
  const sizes = sizesOf(state);
  const masks = maskOptions(state);
  const heads = state.source === 'qkv' ? [givenHead(state)] : projectHeads(attn, state);
  const slopes = alibiOf(state);
  heads.forEach((head, h) => {
    rotateHead(attn, state, head);
    head.masks = masks;
    if (slopes) {
      head.slope = slopes[h];
      head.masks = { ...masks, alibi: [slopes[h]] };
      head.bias = alibiBias(attn, sizes, slopes[h]);
    }
    head.runs = scoringsOf(state).map((scoring) => attentionRun(attn, state, head, scoring, head.masks));
  });
  const x = state.source === 'self' ? fromNested([state.x]) : null;
  const result = {
    sizes,
    x,
    heads,
    projected: x ? outputProjection(attn, state, heads, x) : null,
    visible: visibility(attn, state, sizes),
    masks,
  };
  if (backward) {
    try {
      result.backward = backward(attn, state, result);
    } catch (error) {
      // The forward pass stands on its own: a failed backward is reported in its band only.
      result.backward = { error };
    }
  }
  result.ms = performance.now() - started;
  return result;
}
