// The scoring functions' own parameters (general: W; additive: W_q, W_k, w_v; concat: w), shown
// and editable when a computed scoring has them.
import { fromNested } from '../compute/tensors.js';
import { registerStage, scoringName, stageText } from './registry.js';
import { scoringsOf } from '../state/model.js';

/** The parameters' names as the papers write them (labels here, explanations in the explorer). */
export const NAMES = { w: 'W', wq: 'W_q', wk: 'W_k', wv: 'w_v' };
const SHAPES = {
  general: { w: '(d, d)' },
  additive: { wq: '(d, h)', wk: '(d, h)', wv: '(h)' },
  concat: { w: '(2d)' },
};

function instances(ctx) {
  const list = [];
  scoringsOf(ctx.state).forEach((scoring, run) => {
    for (const [param, value] of Object.entries(ctx.state.params[scoring] ?? {})) {
      list.push({
        tensor: fromNested(value),
        label: `${scoringName(scoring)} · ${param === 'w' && scoring === 'concat' ? 'w' : NAMES[param]} ${SHAPES[scoring][param]}`,
        attrs: { 'data-head': 0, 'data-run': run, 'data-scoring': scoring, 'data-param': param },
      });
    }
  });
  return list;
}

export function registerParamStage() {
  registerStage({
    id: 'params',
    group: 'scores',
    title: 'θ',
    kind: 'signed',
    available: (ctx) => instances(ctx).length > 0,
    editable: () => true,
    caption: () => stageText('stage.params.caption'),
    instances,
  });
}
