// Writes a model's parameters() as .safetensors with attention-lab/io's writeSafetensors, for
// tools/model/check_safetensors.py to load into PyTorch: a model per position kind (trained two
// steps, so no parameter is its initial value), its configuration and the logits of a batch in
// the metadata.   node tools/model/write_parameters.mjs <directory>
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAttention } from '../../web/src/index.js';
import { writeSafetensors } from '../../web/io/index.js';

const CONFIGS = {
  learned: { vocab: 11, dModel: 8, layers: 2, heads: 2, maxLength: 8, positions: 'learned', mlp: 0 },
  rope_gqa_mlp_tied: {
    vocab: 11,
    dModel: 8,
    layers: 2,
    heads: 2,
    kvHeads: 1,
    maxLength: 8,
    positions: 'rope',
    rope: { base: 100 },
    window: 5,
    mlp: 16,
    gelu: 'tanh',
    tie: true,
  },
  alibi_mlp: { vocab: 11, dModel: 12, layers: 1, heads: 3, maxLength: 8, positions: 'alibi', mlp: 8 },
  none: { vocab: 11, dModel: 8, layers: 1, heads: 1, maxLength: 8, positions: 'none', mlp: 0 },
};

const directory = process.argv[2];
if (!directory) throw new Error('usage: node tools/model/write_parameters.mjs <directory>');
const attn = await loadAttention({ simd: true });
const tokens = [
  [1, 4, 2, 8, 5, 7, 1, 0],
  [3, 3, 9, 10, 2, 6, 4, 4],
];
for (const [name, config] of Object.entries(CONFIGS)) {
  const model = attn.transformer({ ...config, seed: 5 });
  for (let step = 0; step < 2; step++) model.trainStep(tokens, { optimizer: { learningRate: 0.01 } });
  const { logits } = model.forward(tokens);
  const metadata = { config: JSON.stringify(model.config), input_ids: JSON.stringify(tokens), logits: JSON.stringify(Array.from(logits.data)) };
  writeFileSync(join(directory, `${name}.safetensors`), writeSafetensors(model.parameters(), metadata));
  model.dispose();
  console.log(`${name}.safetensors`);
}
