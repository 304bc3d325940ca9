// The bands of the pipeline, in order.
import { registerGroup } from './registry.js';

export function registerCoreGroups() {
  registerGroup({ id: 'input', title: 'Input', lede: 'One row per token.' });
  registerGroup({ id: 'weights', title: 'Projection weights', lede: 'Learned matrices; here you set them.' });
  registerGroup({ id: 'qkv', title: 'Queries, keys, values', lede: 'Every token asks (Q), offers (K) and carries (V).' });
  registerGroup({ id: 'scores', title: 'Scores and masks', lede: 'How well each query matches each key, then what it may not see.' });
  registerGroup({ id: 'attention', title: 'Attention', lede: 'Softmax turns each row into weights; the output mixes the values.' });
}
