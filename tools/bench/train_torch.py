"""PyTorch's side of tools/bench/lib/training.mjs: training steps per second of tools/model/transformer.py's
Transformer (float32, AdamW, next-token cross-entropy) on batches read from stdin as JSON
{ config, batches: [[[ids]]], steps, warmup, threads: [n, ...] }, -> one JSON line
{ steps_per_second: [one rate per thread count], torch } (one process: torch's import takes seconds).
Run with /usr/bin/python3 (Debian's python3-torch: its generic BLAS build, named as such in the table).
"""
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'model'))
from transformer import Config, Transformer, next_token_loss  # noqa: E402


def main():
    job = json.load(sys.stdin)
    rates = [steps_per_second(job, threads) for threads in job['threads']]
    print(json.dumps({'steps_per_second': rates, 'torch': torch.__version__}))


def steps_per_second(job, threads):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = Transformer(Config(**job['config']))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
    batches = [torch.tensor(b) for b in job['batches']]

    def step(tokens):
        logits, _, _ = model(tokens)
        loss = next_token_loss(logits, tokens)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    for i in range(job['warmup']):
        step(batches[i % len(batches)])
    start = time.perf_counter()
    for i in range(job['steps']):
        step(batches[i % len(batches)])
    return job['steps'] / (time.perf_counter() - start)


if __name__ == '__main__':
    main()
