// The lab's presets: setups that form a head fast on this page's worker. The induction ones are
// tools/model/train_induction.py's model (2 attention-only layers, learned positions, T = 24).
export const LAB_PRESETS = [
  {
    id: 'induction',
    setup: { task: 'induction', model: { layers: 2, heads: 4, kvHeads: 4, dModel: 32, positions: 'learned', mlp: 0, seed: 0 }, batch: 32, learningRate: 3e-3 },
  },
  {
    id: 'induction-small',
    setup: { task: 'induction', model: { layers: 2, heads: 2, kvHeads: 2, dModel: 16, positions: 'learned', mlp: 0, seed: 0 }, batch: 32, learningRate: 1e-2 },
  },
  {
    id: 'copy',
    setup: { task: 'copy', model: { layers: 2, heads: 2, kvHeads: 2, dModel: 32, positions: 'learned', mlp: 64, seed: 0 }, batch: 32, learningRate: 3e-3 },
  },
  {
    id: 'sort',
    setup: { task: 'sort', model: { layers: 2, heads: 4, kvHeads: 4, dModel: 32, positions: 'learned', mlp: 64, seed: 0 }, batch: 32, learningRate: 3e-3 },
  },
];

export const DEFAULT_TEXT = 'the cat sat on the mat. the dog sat on the log. the cat and the dog sat on the mat and the log. ';
