"""Trains a 2-layer attention-only transformer to continue a repeated sequence, and saves the
attentions of one example: the model view's preset and the example file of the docs and tests.

Task: P distinct random letters (P from 5 to 12, drawn per sequence), repeated to fill T = 24;
predict every next token. The first P are unpredictable; from position P on, the next token is the
one that followed the current token's earlier occurrence (query t looks at key t - P + 1): an
induction head's job. The period varies, so no head can solve it by position alone (with a fixed
period of 12, layer 1 learned "attend to t - 11" from the positions and no induction formed).

Model (as in Elhage et al. 2021, "A Mathematical Framework for Transformer Circuits"): token and
learned position embeddings (d = 32), two causal multi-head attention layers (4 heads of 8) with
pre-LayerNorm and residuals, no MLPs, an unembedding. CPU, float32, seeded; a few minutes on one loaded core.

  /usr/bin/python3 tools/model/train_induction.py   (writes examples/induction/)
"""
import json
import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(__file__))
from safetensors_file import safetensors_bytes  # noqa: E402

LETTERS = 'abcdefghijklmnopqrstuvwxyz'
V, T = len(LETTERS), 24
PERIODS = (5, 12)  # smallest and largest period P
D, H, L = 32, 4, 2
STEPS, BATCH, LR = 4000, 32, 3e-3  # stops early once the second half is copied (accuracy >= TARGET)
TARGET = 0.99
OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'examples', 'induction')


def batch(generator, n, period=None):
    """(n, T) sequences and their periods (n,): a random permutation's first P letters, repeated."""
    letters = torch.argsort(torch.rand(n, V, generator=generator), dim=1)
    if period is None:
        periods = torch.randint(PERIODS[0], PERIODS[1] + 1, (n,), generator=generator)
    else:
        periods = torch.full((n,), period)
    return letters.gather(1, torch.arange(T)[None] % periods[:, None]), periods


def predictable(periods):
    """(n, T - 1) mask of the predictions that the sequence determines: from query t = P on."""
    return torch.arange(T - 1)[None] >= periods[:, None]


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(D)
        self.qkv = nn.Linear(D, 3 * D)
        self.out = nn.Linear(D, D)
        self.register_buffer('causal', torch.tril(torch.ones(T, T, dtype=torch.bool)))

    def forward(self, x):
        # x (B, T, D) -> x + attention, and the weights (B, H, T, T)
        B = x.shape[0]
        q, k, v = self.qkv(self.norm(x)).view(B, T, 3, H, D // H).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(D // H)
        weights = scores.masked_fill(~self.causal, float('-inf')).softmax(-1)
        y = (weights @ v).transpose(1, 2).reshape(B, T, D)
        return x + self.out(y), weights


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Embedding(T, D)
        self.layers = nn.ModuleList([Attention() for _ in range(L)])
        self.norm = nn.LayerNorm(D)
        self.unembed = nn.Linear(D, V)

    def forward(self, tokens):
        x = self.tok(tokens) + self.pos.weight
        attentions = []
        for layer in self.layers:
            x, w = layer(x)
            attentions.append(w)
        return self.unembed(self.norm(x)), torch.stack(attentions, 1)  # (B, T, V), (B, L, H, T, T)


def repeat_accuracy(model, test):
    """Accuracy of the next-token predictions from the first repeat on."""
    tokens, periods = test
    with torch.no_grad():
        logits, _ = model(tokens)
    right = logits[:, :-1].argmax(-1) == tokens[:, 1:]
    return right[predictable(periods)].float().mean().item()


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)  # tiny matrices: a second thread only adds synchronisation on a loaded machine
    generator = torch.Generator().manual_seed(1)
    model = Model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    test = batch(torch.Generator().manual_seed(2), 1000)
    start = time.time()
    log = []
    for step in range(1, STEPS + 1):
        tokens, _ = batch(generator, BATCH)
        logits, _ = model(tokens)
        loss = nn.functional.cross_entropy(logits[:, :-1].reshape(-1, V), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            acc = repeat_accuracy(model, test)
            log.append({'step': step, 'loss': round(loss.item(), 4), 'repeat_accuracy': round(acc, 4)})
            print(f'step {step}: loss {loss.item():.3f}, repeat accuracy {acc:.3f}', flush=True)
            if acc >= TARGET:
                break
    seconds = time.time() - start

    # Head scores on the test set, the mean weight of: previous token (query t -> key t - 1) and
    # induction (query t >= P -> key t - P + 1, the successor of the earlier occurrence).
    tokens, periods = test
    with torch.no_grad():
        _, att = model(tokens)  # (N, L, H, T, T)
    t = torch.arange(1, T)
    previous = att[:, :, :, t, t - 1].mean((0, 3))
    q = torch.arange(T)[None].expand(len(periods), T)
    k = (q - periods[:, None] + 1).clamp(min=0)
    rows = att.gather(4, k[:, None, None, :, None].expand(-1, L, H, T, 1))[..., 0]  # (N, L, H, T)
    mask = (q >= periods[:, None])[:, None, None, :]
    induction = (rows * mask).sum((0, 3)) / mask.sum((0, 3))

    os.makedirs(OUT, exist_ok=True)
    example, _ = batch(torch.Generator().manual_seed(3), 1, period=10)
    with torch.no_grad():
        _, att = model(example)
    weights = att[0].numpy().astype(np.float32)  # (L, H, T, T)
    tokens = [LETTERS[i] for i in example[0].tolist()]
    summary = {
        'task': f'P = {PERIODS[0]}..{PERIODS[1]} distinct random letters repeated to T = {T}; next-token prediction; the example has P = 10',
        'model': f'{L} attention-only layers x {H} heads, d = {D}, pre-LayerNorm, learned positions',
        'steps': step, 'batch': BATCH, 'seconds': round(seconds, 1),
        'repeat_accuracy': round(repeat_accuracy(model, test), 4),
        'previous_token_score': [[round(x, 3) for x in row] for row in previous.tolist()],
        'induction_score': [[round(x, 3) for x in row] for row in induction.tolist()],
        'log': log,
    }
    with open(os.path.join(OUT, 'attention.safetensors'), 'wb') as f:
        f.write(safetensors_bytes({'attention': weights}, {'tokens': json.dumps(tokens), 'source': 'tools/model/train_induction.py'}))
    np.save(os.path.join(OUT, 'attention.npy'), weights)
    with open(os.path.join(OUT, 'attention.json'), 'w') as f:
        # BertViz's layout: one (1, H, T, T) list per layer, with the tokens; 4 decimals keep it small.
        json.dump({'attention': [np.round(w[None], 4).tolist() for w in weights], 'tokens': tokens}, f, separators=(',', ':'))
    with open(os.path.join(OUT, 'training.json'), 'w') as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != 'log'}, indent=1))


if __name__ == '__main__':
    main()
