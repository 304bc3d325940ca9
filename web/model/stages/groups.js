// The bands of the pipeline, in order; and the stage ids of the bands the backward pass adds, the
// one list of them: backward.js registers those stages under these ids, and the figures read the
// list to tell a backward stage from a forward one without registering (or downloading) them.
import { registerGroup } from './registry.js';

export function registerCoreGroups() {
  registerGroup({ id: 'input', title: 'Input', lede: 'One row per token.' });
  registerGroup({ id: 'weights', title: 'Projection weights', lede: 'Learned matrices; here you set them.' });
  registerGroup({ id: 'qkv', title: 'Queries, keys, values', lede: 'Every token asks (Q), offers (K) and carries (V).' });
  registerGroup({ id: 'scores', title: 'Scores and masks', lede: 'How well each query matches each key, then what it may not see.' });
  registerGroup({ id: 'attention', title: 'Attention', lede: 'Softmax turns each row into weights; the output mixes the values.' });
}

// band id -> its stage ids, in pipeline order (backward.js registers the bands after the forward ones)
export const BACKWARD_STAGES = {
  loss: ['target', 'd-projected', 'd-output'],
  gradients: ['d-weights', 'd-scores', 'dq', 'dk', 'dv'],
  'weight-gradients': ['dwq', 'dwk', 'dwv', 'dwo'],
};

export const BACKWARD_STAGE_IDS = new Set(Object.values(BACKWARD_STAGES).flat());
