// The stages of the forward and the backward pass, registered in pipeline order.
import { registerBackwardStages } from './backward.js';
import { registerForwardStages } from './forward.js';

export function registerCoreStages() {
  registerForwardStages();
  registerBackwardStages();
}
