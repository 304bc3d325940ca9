// The layer's output of a 'self' state, per run (scoring): the heads' outputs side by side, then
// W^O when the state has one (Vaswani et al.: MultiHead = Concat(head_1, ..., head_H) W^O):
//   concat  (1, T, H d_v)        head h's output in columns h d_v .. (h + 1) d_v - 1
//   output  (1, T, d_out)        concat W^O (d_out = d_in), or concat itself without W^O
// When a multiHeadAttention layer computes the state (layers.js), the output shown is that
// layer's (the core's numbers) and `agreement` says how far the product in JS is from it;
// otherwise the product is in JS (float64 sums, stored as float32) and `layer` is null.
import { withLayer, forwardOptions, multiHeadOptions } from './layers.js';
import { largestDifference, product } from './linear.js';
import { fromNested, sideBySide } from './tensors.js';

/** -> [{ scoring, concat, output, layer: 'multiHeadAttention' | null, agreement?: { diff } }] per run. */
export function outputProjection(attn, state, heads, x) {
  const wo = state.wo ? fromNested(state.wo) : null;
  return heads[0].runs.map((run, r) => {
    const concat = sideBySide(heads.map((head) => head.runs[r].output));
    const inJs = wo ? product(concat, wo) : concat;
    const options = multiHeadOptions(state, run.scoring);
    if (!options) return { scoring: run.scoring, concat, output: inJs, layer: null };
    const output = withLayer(attn, 'multiHeadAttention', options, (layer) => layer.forward(x, forwardOptions(state)).output);
    return { scoring: run.scoring, concat, output, layer: 'multiHeadAttention', agreement: largestDifference(output, inJs) };
  });
}
