// The stages of the forward and the backward pass, registered in pipeline order.
import { registerCoreGroups } from './groups.js';
import { registerAttentionStages } from './attention.js';
import { registerBackwardStages } from './backward.js';
import { registerInputStages } from './inputs.js';
import { registerOutputStages } from './output.js';
import { registerParamStage } from './params.js';
import { registerPositionStages } from './positions.js';
import { registerScoreStages } from './scores.js';

export function registerCoreStages() {
  registerCoreGroups();
  registerInputStages();
  registerParamStage();
  registerScoreStages();
  registerAttentionStages();
  registerOutputStages();
  registerPositionStages();
  registerBackwardStages();
}
