"""The general decoder-only transformer that attention-lab's C++ core trains (cpp/include/attnlab/
transformer.hpp), in PyTorch, with the same parameter names, shapes and layouts (its state_dict).

Token embedding; positions 'learned' (an embedding added to the tokens'), 'rope' (Llama's
rotate_half on q and k), 'alibi' (Press et al.'s bias -slope (i - j)) or 'none'; L layers of
pre-LayerNorm causal multi-head attention (kv_heads for grouped heads, window w: query i sees keys
i - w + 1 .. i) with a residual, and when mlp > 0 a pre-LayerNorm GELU MLP with its own residual;
a final LayerNorm and the unembedding (tie: the embedding's weight).

Attention-only with learned positions and T = max_length it is train_induction.py's Model, name for
name (without its `causal` buffers): tests/golden/gen_transformer_golden.py checks that it computes
the same logits from the same state_dict.
"""
import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass
class Config:
    vocab: int
    d_model: int
    layers: int
    heads: int
    max_length: int
    kv_heads: int = 0  # 0: heads
    positions: str = 'learned'  # learned | rope | alibi | none
    rope_base: float = 10000.0
    window: int = 0  # 0: none
    mlp: int = 0  # hidden width, 0: attention-only
    gelu: str = 'none'  # F.gelu's approximate: 'none' | 'tanh'
    tie: bool = False
    norm_eps: float = 1e-5

    @property
    def kv(self):
        return self.kv_heads or self.heads


def alibi_slopes(n):
    """Press et al.'s get_slopes (github.com/ofirpress/attention_with_linear_biases)."""
    def power_of_two(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start ** i for i in range(n)]
    if math.log2(n).is_integer():
        return power_of_two(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_two(closest) + alibi_slopes(2 * closest)[0::2][:n - closest]


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), -1)


class Layer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        dh = c.d_model // c.heads
        self.norm = nn.LayerNorm(c.d_model, eps=c.norm_eps)
        self.qkv = nn.Linear(c.d_model, c.d_model + 2 * c.kv * dh)  # rows: queries, keys, values
        self.out = nn.Linear(c.d_model, c.d_model)
        if c.mlp > 0:
            self.mlp_norm = nn.LayerNorm(c.d_model, eps=c.norm_eps)
            self.fc1 = nn.Linear(c.d_model, c.mlp)
            self.fc2 = nn.Linear(c.mlp, c.d_model)

    def forward(self, x):
        # x (B, T, d) -> x after the attention (and MLP) residuals, and the weights (B, H, T, T)
        c, (B, T, d) = self.c, x.shape
        H, Hkv, dh = c.heads, c.kv, d // c.heads
        q, k, v = self.qkv(self.norm(x)).split([d, Hkv * dh, Hkv * dh], -1)
        q = q.view(B, T, H, dh).transpose(1, 2)
        k = k.view(B, T, Hkv, dh).transpose(1, 2).repeat_interleave(H // Hkv, 1)
        v = v.view(B, T, Hkv, dh).transpose(1, 2).repeat_interleave(H // Hkv, 1)
        i = torch.arange(T)[:, None]
        j = torch.arange(T)[None, :]
        if c.positions == 'rope':
            inv = c.rope_base ** (-torch.arange(0, dh // 2, dtype=torch.float64) * 2 / dh)
            angle = torch.arange(T, dtype=torch.float64)[:, None] * inv[None]
            cos, sin = torch.cat((angle.cos(),) * 2, -1).to(q.dtype), torch.cat((angle.sin(),) * 2, -1).to(q.dtype)
            q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        scores = q @ k.transpose(-1, -2) / math.sqrt(dh)
        if c.positions == 'alibi':
            slopes = torch.tensor(alibi_slopes(H), dtype=scores.dtype)
            scores = scores - slopes[:, None, None] * (i - j).abs().to(scores.dtype)
        visible = j <= i
        if c.window > 0:
            visible = visible & (j > i - c.window)
        weights = scores.masked_fill(~visible, float('-inf')).softmax(-1)
        y = (weights @ v).transpose(1, 2).reshape(B, T, d)
        x = x + self.out(y)
        if c.mlp > 0:
            x = x + self.fc2(F.gelu(self.fc1(self.mlp_norm(x)), approximate=c.gelu))
        return x, weights


class Transformer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.tok = nn.Embedding(c.vocab, c.d_model)
        if c.positions == 'learned':
            self.pos = nn.Embedding(c.max_length, c.d_model)
        self.layers = nn.ModuleList([Layer(c) for _ in range(c.layers)])
        self.norm = nn.LayerNorm(c.d_model, eps=c.norm_eps)
        self.unembed = nn.Linear(c.d_model, c.vocab)
        if c.tie:
            self.unembed.weight = self.tok.weight

    def forward(self, tokens):
        # tokens (B, T) -> logits (B, T, V), attentions (B, L, H, T, T), residual after each layer (L, B, T, d)
        x = self.tok(tokens)
        if self.c.positions == 'learned':
            x = x + self.pos.weight[:tokens.shape[1]]
        attentions, residual = [], []
        for layer in self.layers:
            x, w = layer(x)
            attentions.append(w)
            residual.append(x)
        return self.unembed(self.norm(x)), torch.stack(attentions, 1), torch.stack(residual)


def next_token_loss(logits, tokens):
    """train_induction.py's loss: logits[:, :-1] against tokens[:, 1:], mean cross-entropy."""
    V = logits.shape[-1]
    return F.cross_entropy(logits[:, :-1].reshape(-1, V), tokens[:, 1:].reshape(-1))
