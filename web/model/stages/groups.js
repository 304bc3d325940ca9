// The bands of the pipeline, in order; and the stage ids of the bands the backward pass adds, the
// one list of them: backward.js registers those stages under these ids, and the figures read the
// list to tell a backward stage from a forward one without registering (or downloading) them.
import { registerGroup } from './registry.js';

export function registerCoreGroups() {
  // Titles and ledes: 'stage.group.<id>.title' and '.lede' in web/i18n.
  for (const id of ['input', 'weights', 'qkv', 'scores', 'attention']) registerGroup({ id });
}

// band id -> its stage ids, in pipeline order (backward.js registers the bands after the forward ones)
export const BACKWARD_STAGES = {
  loss: ['target', 'd-projected', 'd-output'],
  gradients: ['d-weights', 'd-scores', 'dq', 'dk', 'dv'],
  'weight-gradients': ['dwq', 'dwk', 'dwv', 'dwo'],
};

export const BACKWARD_STAGE_IDS = new Set(Object.values(BACKWARD_STAGES).flat());
