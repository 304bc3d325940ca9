// PyTorch state_dicts saved as .safetensors (tools/model/save_state_dict.py) load unchanged into
// attn.transformer through attention-lab/io's readTensors: a tied model's second name for the
// embedding and train_induction.py's causal buffers included; the logits are PyTorch's. And a
// model's parameters() written with writeSafetensors read back to the same state_dict (that
// PyTorch loads them: tools/model/check_safetensors.py, run offline).
import { describe, expect, it } from 'vitest';
import { BACKENDS, loadBackend } from '../support/backends.js';
import { expectClose } from '../support/numeric.js';
import { readTensors, writeSafetensors } from '../../../web/io/index.js';
import { transformerConfig } from './transformer-golden.js';

const urls = import.meta.glob('../../golden/transformer/state_dict_*.safetensors', { query: '?url&inline', import: 'default', eager: true });
const bytes = (name) => Uint8Array.from(atob(urls[`../../golden/transformer/${name}`].split(',')[1]), (c) => c.charCodeAt(0));

// Both sides compute in float32 from the same float32 parameters, in other orders: a few ulp of
// logits of magnitude ~1-5 through two layers (the float64 goldens allow 4e-6 for the same path).
const LOGITS = { atol: 2e-5, rtol: 1e-5 };

describe.each(BACKENDS)('PyTorch state_dicts as safetensors ($backend)', ({ simd, backend }) => {
  it.each(['state_dict_general.safetensors', 'state_dict_induction.safetensors'])("%s loads unchanged and gives PyTorch's logits", async (name) => {
    const attn = await loadBackend({ simd, backend });
    const file = await readTensors(bytes(name), { name });
    const config = JSON.parse(file.metadata.config);
    const model = attn.transformer(transformerConfig(config));
    model.setParameters(file.tensors);
    const ids = JSON.parse(file.metadata.input_ids);
    const { logits } = model.forward(ids);
    expectClose(logits, { data: JSON.parse(file.metadata.logits), shape: [ids.length, ids[0].length, config.vocab] }, { ...LOGITS, label: `${name} logits` });
    // what it loaded is what the file holds, name for name (the causal buffers aside)
    const saved = model.parameters();
    const names = Object.keys(file.tensors)
      .filter((n) => !n.endsWith('.causal'))
      .sort();
    expect(Object.keys(saved).sort()).toEqual(names);
    for (const n of names) expect(saved[n].data, n).toEqual(file.tensors[n].data);
    model.dispose();
  });

  it('parameters() written with writeSafetensors read back as the same tensors, and load into a fresh model', async () => {
    const attn = await loadBackend({ simd, backend });
    const config = { vocab: 9, dModel: 8, layers: 1, heads: 2, maxLength: 5, positions: 'alibi', mlp: 4, tie: true, seed: 2 };
    const model = attn.transformer(config);
    model.trainStep([[1, 2, 3, 4, 5]], { optimizer: { learningRate: 0.01 } });
    const file = await readTensors(writeSafetensors(model.parameters(), { config: JSON.stringify(config) }), { name: 'model.safetensors' });
    const copy = attn.transformer({ ...config, seed: 3 });
    copy.setParameters(file.tensors);
    expect(copy.forward([[4, 3, 2]]).logits).toEqual(model.forward([[4, 3, 2]]).logits);
    model.dispose();
    copy.dispose();
  });
});
