#!/usr/bin/python3
"""Float64 goldens of the whole transformer (tools/model/transformer.py), for the C++ core's
Transformer (tests/cpp/transformer_golden_test.cpp). Run with Debian's torch:

  /usr/bin/python3 tests/golden/gen_transformer_golden.py   (writes tests/golden/transformer/*.txt)

Per configuration: parameters drawn by PyTorch's own initialisation from a seed and rounded to
float32 (so the float32 core starts from exactly these numbers), two batches of tokens, the targets
and loss mask (next tokens; one case masks more), then in float64: the logits of batch 1, the loss,
every parameter's gradient, and every parameter after two torch.optim.AdamW steps (batch 1, then
batch 2; with clip_grad_norm_ where the case clips).

Text format, one item per line; parameters as %.9g (float32 round-trips exactly), computed values as
%.12g (1e-12 relative: far below the float32 core's tolerances):
  config key value ...                     (transformer.hpp's TransformerConfig names)
  optimizer lr b1 b2 eps wd clip
  ints <name> <count> v...                  tokens1, tokens2 (B, T); targets1, targets2 (B, T)
  floats <name> <count> v...               mask1, mask2 (B, T); logits (B, T, V); loss
  param|grad|after <name> <count> v...      state_dict order
And induction_curve.txt: 300 AdamW steps of the induction model from one float32 start on
batches both sides generate alike, the loss curves of float32 and float64 PyTorch.
It also checks that train_induction.py's Model and the attention-only Transformer agree.
"""
import os
import sys

import torch
from torch.nn import functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tools', 'model'))
import transformer as tr  # noqa: E402

OUT = os.path.join(HERE, 'transformer')
B, T, V = 2, 8, 11
CASES = [
    ('learned', dict(d_model=8, heads=2, positions='learned')),
    ('rope', dict(d_model=8, heads=2, positions='rope')),
    ('alibi', dict(d_model=8, heads=2, positions='alibi')),
    ('none', dict(d_model=8, heads=2, positions='none')),
    ('learned_mlp', dict(d_model=8, heads=2, positions='learned', mlp=16)),
    ('rope_mlp_tanh_tied', dict(d_model=8, heads=2, positions='rope', mlp=16, gelu='tanh', tie=True)),
    ('alibi_mlp', dict(d_model=8, heads=2, positions='alibi', mlp=12)),
    ('none_mlp', dict(d_model=8, heads=2, positions='none', mlp=8)),
    ('gqa_rope_mlp', dict(d_model=16, heads=4, kv_heads=2, positions='rope', mlp=16)),
    ('gqa_learned', dict(d_model=16, heads=4, kv_heads=1, positions='learned')),
    ('window_alibi_mlp', dict(d_model=8, heads=2, positions='alibi', window=3, mlp=16)),
    ('window_learned', dict(d_model=8, heads=2, positions='learned', window=2)),
    ('clipped_masked', dict(d_model=8, heads=2, positions='learned', mlp=16), dict(clip=0.5, wd=0.1, mask_from=3)),
]
GELU = {'none': 0, 'tanh': 1}
POSITIONS = {'learned': 0, 'rope': 1, 'alibi': 2, 'none': 3}


def line(kind, name, values, fmt='%.12g'):
    return f'{kind} {name} {len(values)} ' + ' '.join(fmt % v for v in values)


def targets_and_mask(tokens, mask_from):
    targets = torch.zeros_like(tokens)
    targets[:, :-1] = tokens[:, 1:]
    mask = torch.zeros(tokens.shape, dtype=torch.float64)
    mask[:, mask_from:-1] = 1.0
    return targets, mask


def masked_loss(logits, targets, mask):
    losses = F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1), reduction='none')
    return (losses * mask.reshape(-1)).sum() / mask.sum()


def case(name, kwargs, extra, seed):
    extra = extra or {}
    c = tr.Config(vocab=V, layers=2, max_length=T, **kwargs)
    torch.manual_seed(seed)
    model = tr.Transformer(c).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.float().double())  # exactly representable in float32
    g = torch.Generator().manual_seed(seed + 1)
    tokens = [torch.randint(0, V, (B, T), generator=g) for _ in range(2)]
    mask_from = extra.get('mask_from', 0)
    tm = [targets_and_mask(t, mask_from) for t in tokens]
    opt = dict(lr=1e-2, b1=0.9, b2=0.999, eps=1e-8, wd=extra.get('wd', 0.01), clip=extra.get('clip', 0.0))
    fields = dict(vocab=V, d_model=c.d_model, layers=c.layers, heads=c.heads, kv_heads=c.kv, max_length=T,
                  positions=POSITIONS[c.positions], window=c.window, mlp=c.mlp, gelu=GELU[c.gelu], tie=int(c.tie))
    out = ['config ' + ' '.join(f'{k} {v}' for k, v in fields.items())]
    out.append('optimizer ' + ' '.join('%.17g' % opt[k] for k in ('lr', 'b1', 'b2', 'eps', 'wd', 'clip')))
    for i in range(2):
        out.append(line('ints', f'tokens{i + 1}', tokens[i].flatten().tolist(), '%d'))
        out.append(line('ints', f'targets{i + 1}', tm[i][0].flatten().tolist(), '%d'))
        out.append(line('floats', f'mask{i + 1}', tm[i][1].flatten().tolist(), '%g'))
    named = list(model.named_parameters())  # tied: unembed.weight is tok.weight, listed once
    for n, p in named:
        out.append(line('param', n, p.detach().flatten().tolist(), '%.9g'))
    optimizer = torch.optim.AdamW(model.parameters(), lr=opt['lr'], betas=(opt['b1'], opt['b2']), eps=opt['eps'],
                                  weight_decay=opt['wd'])
    for step in range(2):
        logits, _, _ = model(tokens[step])
        loss = masked_loss(logits, *tm[step])
        optimizer.zero_grad()
        loss.backward()
        if step == 0:
            out.append(line('floats', 'logits', logits.detach().flatten().tolist()))
            out.append(line('floats', 'loss', [loss.item()]))
            for n, p in named:
                out.append(line('grad', n, p.grad.flatten().tolist()))
        if opt['clip'] > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), opt['clip'])
        optimizer.step()
    for n, p in named:
        out.append(line('after', n, p.detach().flatten().tolist()))
    with open(os.path.join(OUT, name + '.txt'), 'w') as f:
        f.write('\n'.join(out) + '\n')
    print(f'{name}: loss {out[[o.split()[1] for o in out].index("loss")].split()[-1]}')


def check_induction_model():
    """train_induction.py's Model and the attention-only Transformer: same names, same logits."""
    import train_induction as ti
    torch.manual_seed(0)
    model = ti.Model().double()
    general = tr.Transformer(tr.Config(vocab=ti.V, d_model=ti.D, layers=ti.L, heads=ti.H, max_length=ti.T)).double()
    state = {k: v for k, v in model.state_dict().items() if not k.endswith('.causal')}
    general.load_state_dict(state)  # strict: every name and shape must match
    tokens, _ = ti.batch(torch.Generator().manual_seed(5), 4)
    a, wa = model(tokens)
    b, wb, _ = general(tokens)
    assert torch.allclose(a, b, atol=1e-12) and torch.allclose(wa, wb, atol=1e-12), 'induction model differs'
    print('train_induction.Model == Transformer(attention-only, learned): logits and attentions agree')


MASK64 = (1 << 64) - 1


def splitmix64(state):
    """(next state, output): splitmix64, the same bits in tests/cpp/transformer_curve_test.cpp."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def induction_batches(seed, steps, B, T, V, periods=(5, 12)):
    """train_induction.py's task from a generator C++ can repeat: per sequence a period P in
    [5, 12], the first P letters of a Fisher-Yates shuffle of the V letters, repeated to T."""
    state, out = seed, []
    for _ in range(steps):
        batch = []
        for _ in range(B):
            state, r = splitmix64(state)
            P = periods[0] + r % (periods[1] - periods[0] + 1)
            letters = list(range(V))
            for i in range(V - 1, 0, -1):
                state, r = splitmix64(state)
                j = r % (i + 1)
                letters[i], letters[j] = letters[j], letters[i]
            batch.append([letters[t % P] for t in range(T)])
        out.append(torch.tensor(batch))
    return out


def induction_curve(steps=300):
    """The induction model (tools/model/train_induction.py's config: V 26, T 24, d 32, 2 layers of
    4 heads, AdamW lr 3e-3, wd 0.01, batch 32) trained from one float32 initialisation on the same
    batches in float32 and in float64: both loss curves, whose gap is float32's own drift."""
    c = tr.Config(vocab=26, d_model=32, layers=2, heads=4, max_length=24)
    torch.manual_seed(0)
    start = tr.Transformer(c).float().state_dict()
    batches = induction_batches(1, steps, 32, 24, 26)
    curves = {}
    for dtype in (torch.float32, torch.float64):
        model = tr.Transformer(c).to(dtype)
        model.load_state_dict({k: v.to(dtype) for k, v in start.items()})
        optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
        curve = []
        for tokens in batches:
            logits, _, _ = model(tokens)
            loss = tr.next_token_loss(logits, tokens)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            curve.append(loss.item())
        curves[dtype] = curve
    out = ['config vocab 26 d_model 32 layers 2 heads 4 kv_heads 4 max_length 24 positions 0 window 0 mlp 0 gelu 0 tie 0',
           'optimizer 0.003 0.9 0.999 1e-08 0.01 0', 'ints seed 1 1']
    out += [line('param', n, p.flatten().tolist(), '%.9g') for n, p in start.items()]
    out.append(line('floats', 'loss32', curves[torch.float32]))
    out.append(line('floats', 'loss64', curves[torch.float64]))
    with open(os.path.join(OUT, 'induction_curve.txt'), 'w') as f:
        f.write('\n'.join(out) + '\n')
    gap = max(abs(a - b) for a, b in zip(curves[torch.float32], curves[torch.float64]))
    print(f'induction curve: {steps} steps, loss {curves[torch.float64][0]:.4f} -> {curves[torch.float64][-1]:.4f}, '
          f'float32 vs float64 at most {gap:.2g} apart')


def main():
    torch.set_default_dtype(torch.float64)
    os.makedirs(OUT, exist_ok=True)
    check_induction_model()
    for i, spec in enumerate(CASES):
        name, kwargs = spec[0], spec[1]
        case(name, kwargs, spec[2] if len(spec) > 2 else None, 100 + i)
    induction_curve()


if __name__ == '__main__':
    main()
