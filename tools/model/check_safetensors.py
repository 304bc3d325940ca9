"""Checks that attn.transformer's parameters() load in PyTorch: tools/model/write_parameters.mjs
writes them (attention-lab/io's writeSafetensors) for a model of each position kind; each file is
loaded with load_state_dict(strict=True) into tools/model/transformer.py's Transformer of the
configuration in its metadata, and PyTorch's float32 logits are compared with ours.

  /usr/bin/python3 tools/model/check_safetensors.py    (runs node; exits 1 on a mismatch)
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from safetensors_file import read_safetensors  # noqa: E402
from transformer import Config, Transformer  # noqa: E402

# float32 on both sides from the same parameters, summed in other orders: a few ulp of O(1) logits.
ATOL, RTOL = 2e-5, 1e-5


def config_of(c):
    return Config(vocab=c['vocab'], d_model=c['dModel'], layers=c['layers'], heads=c['heads'], kv_heads=c['kvHeads'],
                  max_length=c['maxLength'], positions=c['positions'], rope_base=c.get('rope', {}).get('base', 10000.0),
                  window=c.get('window', 0), mlp=c['mlp'], gelu=c['gelu'], tie=c['tie'])


def main():
    failed = False
    with tempfile.TemporaryDirectory() as directory:
        files = subprocess.run(['node', os.path.join(HERE, 'write_parameters.mjs'), directory], check=True,
                               capture_output=True, text=True).stdout.split()
        for name in files:
            with open(os.path.join(directory, name), 'rb') as f:
                tensors, metadata = read_safetensors(f.read())
            model = Transformer(config_of(json.loads(metadata['config'])))
            model.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in tensors.items()}, strict=True)
            with torch.no_grad():
                logits = model(torch.tensor(json.loads(metadata['input_ids'])))[0].numpy()
            ours = np.array(json.loads(metadata['logits']), dtype=np.float32).reshape(logits.shape)
            worst = float(np.abs(logits - ours).max())
            ok = np.allclose(ours, logits, atol=ATOL, rtol=RTOL)
            failed |= not ok
            print(f'{name}: {len(tensors)} tensors loaded strictly, logits {logits.shape}, worst |ours - PyTorch| {worst:.2g}: {"ok" if ok else "MISMATCH"}')
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
