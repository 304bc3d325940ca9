// The stages of the forward pass, registered in pipeline order (index.js adds the backward's after
// them; a figure that shows no gradient registers these alone).
import { registerCoreGroups } from './groups.js';
import { registerAttentionStages } from './attention.js';
import { registerInputStages } from './inputs.js';
import { registerOutputStages } from './output.js';
import { registerParamStage } from './params.js';
import { registerPositionStages } from './positions.js';
import { registerScoreStages } from './scores.js';

export function registerForwardStages() {
  registerCoreGroups();
  registerInputStages();
  registerParamStage();
  registerScoreStages();
  registerAttentionStages();
  registerOutputStages();
  registerPositionStages();
}
