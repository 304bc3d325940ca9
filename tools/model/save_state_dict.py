"""Writes two PyTorch state_dicts as .safetensors for tests/js/api/transformer-safetensors.test.js, which
loads each into attn.transformer unchanged (readTensors, then setParameters) and compares the
logits with PyTorch's float32 logits stored in the file's metadata:

  tests/golden/transformer/state_dict_general.safetensors   tools/model/transformer.py's Transformer:
      rotary positions, grouped heads, a window, a tanh-GELU MLP and a tied unembedding (whose
      state_dict lists the embedding twice, as tok.weight and unembed.weight)
  tests/golden/transformer/state_dict_induction.safetensors train_induction.py's Model (seeded, not
      trained), whose state_dict also holds its layers' causal masks (bool buffers)

Metadata: config (transformer.py's Config fields as JSON; the induction model's equivalent),
input_ids (B, T) and logits (B, T, V) as JSON. Deterministic (torch.manual_seed).

  /usr/bin/python3 tools/model/save_state_dict.py
"""
import dataclasses
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import train_induction  # noqa: E402
from safetensors_file import safetensors_bytes  # noqa: E402
from transformer import Config, Transformer  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'golden', 'transformer')


def save(name, model, config, tokens):
    with torch.no_grad():
        logits = model(tokens)[0]
    tensors = {k: v.numpy() for k, v in model.state_dict().items()}  # tied: both names, one storage
    metadata = {
        'config': json.dumps(config),
        'input_ids': json.dumps(tokens.tolist()),
        'logits': json.dumps([float(x) for x in logits.numpy().astype(np.float32).ravel()]),
        'source': 'tools/model/save_state_dict.py',
    }
    path = os.path.join(OUT, f'state_dict_{name}.safetensors')
    with open(path, 'wb') as f:
        f.write(safetensors_bytes(tensors, metadata))
    print(path, os.path.getsize(path), 'bytes', sorted(tensors))


def main():
    torch.manual_seed(0)
    config = Config(vocab=11, d_model=8, layers=2, heads=2, kv_heads=1, max_length=8, positions='rope',
                    rope_base=100.0, window=5, mlp=16, gelu='tanh', tie=True)
    tokens = torch.randint(0, config.vocab, (2, 8))
    save('general', Transformer(config).eval(), dataclasses.asdict(config), tokens)

    torch.manual_seed(1)
    model = train_induction.Model().eval()
    induction = {'vocab': train_induction.V, 'd_model': train_induction.D, 'layers': train_induction.L,
                 'heads': train_induction.H, 'kv_heads': 0, 'max_length': train_induction.T, 'positions': 'learned',
                 'rope_base': 10000.0, 'window': 0, 'mlp': 0, 'gelu': 'none', 'tie': False, 'norm_eps': 1e-5}
    tokens, _ = train_induction.batch(torch.Generator().manual_seed(3), 2)
    save('induction', model, induction, tokens)


if __name__ == '__main__':
    main()
