#!/usr/bin/python3
"""Golden forward + backward vectors for attention-lab, computed with PyTorch (Debian's 1.13).

Run with Debian's interpreter (tools/gen-golden.sh does): /usr/bin/python3 tests/golden/gen_golden.py
It writes tests/golden/golden.json, read by tests/js/golden.test.js.

Everything is composed from matmul / softmax in float64 with autograd gradients, following
docs/semantics.md, independently of the C++ core:
  S  = scale * q k^T ;  S' = softcap * tanh(S / softcap) ;  Z = S' + float mask, -inf where masked
  P  = softmax(Z) per row, and a row with no visible key is all zeros (zero output, zero gradient)
  out = P v
PyTorch 1.13 has no F.scaled_dot_product_attention and its softmax of an all -inf row is NaN, so the
zero row is built explicitly: such rows are softmaxed over zeros (finite) and then multiplied by 0.

Inputs are multiples of 1/32 (exact in float32, short in JSON), so the float32 core sees exactly
the numbers the float64 reference used. Each case draws from its own seeded generator.

Case format (all tensors {"shape": [...], "data": [...]}, -inf written as the string "-inf"):
  {"name", "fn": "scaledDotProductAttention" | "maskedSoftmax" | "additiveAttention" | "attention"
                 | "selfAttention" | "multiHeadAttention" | "rope",
   "inputs": {...}, "options": {...}, "gradOutput": tensor,
   "expected": {"output", "weights"?, "lse"?, "dq", "dk", "dv", "dw"?, "dwq"?, ... }}
Layers: "layer" holds the constructor options (given weights), "inputs" {"x"}, "forward" the
forward options; expected holds output, dx, dwq, dwk, dwv (and dwo).
rope: "inputs" {"x"}, "options" {base, offset, interleaved}; expected output and dx (through ropeBackward).

The modern options are written out as their papers and Hugging Face's code state them, not from
the core: the sliding window as FlashAttention's bounds on j - i, ALiBi as Press et al.'s bias with
the slopes of their get_slopes(), RoPE as Llama's rotate_half and GPT-J's rotate_every_two.
"""
import json
import math
import os

import torch

torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_PATH = os.path.join(HERE, "golden.json")


# ---------------------------------------------------------------- inputs and encoding

def draw(gen, *shape, spread=1.0):
    """Normal values rounded to multiples of 1/32: exactly representable in float32."""
    x = torch.randn(*shape, generator=gen) * spread
    return (torch.round(x * 32) / 32).requires_grad_(True)


def enc_num(x):
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    if math.isnan(x):
        return "nan"
    return float("%.9g" % x)  # 9 significant digits: past float32's resolution, short in JSON


def enc(t):
    t = t.detach()
    return {"shape": list(t.shape), "data": [enc_num(float(v)) for v in t.reshape(-1)]}


def enc_bool(t):
    return {"dtype": "bool", "shape": list(t.shape), "data": [int(v) for v in t.reshape(-1)]}


def enc_float_mask(t):
    return {"dtype": "float32", "shape": list(t.shape), "data": [enc_num(float(v)) for v in t.reshape(-1)]}


# ---------------------------------------------------------------- the reference math

def as_rank4(t):
    """(T, d) -> (1, 1, T, d); (B, T, d) -> (B, 1, T, d); rank 4 unchanged (docs/semantics.md)."""
    while t.dim() < 4:
        t = t.unsqueeze(0) if t.dim() == 2 else t.unsqueeze(1)
    return t


def from_rank4(t, rank):
    """Inverse of as_rank4 for an output of the rank of q."""
    if rank == 3:
        return t.squeeze(1)
    if rank == 2:
        return t.squeeze(0).squeeze(0)
    return t


def visibility(B, H, Tq, Tk, valid_lens=None, causal=None, bool_mask=None, float_mask=None, window=None):
    """(B, H, Tq, Tk) bool: key j visible from query i under every constraint (they intersect)."""
    vis = torch.ones(B, H, Tq, Tk, dtype=torch.bool)
    j = torch.arange(Tk).view(1, 1, 1, Tk)
    i = torch.arange(Tq).view(1, 1, Tq, 1)
    if valid_lens is not None:
        lens = torch.tensor(valid_lens)
        lens = lens.view(B, 1, 1, 1) if lens.dim() == 1 else lens.view(B, 1, Tq, 1)
        vis = vis & (j < lens)
    if causal == "top-left":
        vis = vis & (j <= i)
    elif causal == "bottom-right":
        vis = vis & (j <= i + Tk - Tq)
    if bool_mask is not None:
        vis = vis & bool_mask.expand(B, H, Tq, Tk)
    if float_mask is not None:
        vis = vis & (float_mask.expand(B, H, Tq, Tk) > -math.inf)
    if window is not None:
        # FlashAttention's local window: i + Tk - Tq - left <= j <= i + Tk - Tq + right, -1 = unbounded.
        left, right = window
        if left >= 0:
            vis = vis & (j >= i + Tk - Tq - left)
        if right >= 0:
            vis = vis & (j <= i + Tk - Tq + right)
    return vis


def alibi_paper_slopes(n):
    """get_slopes(n) of Press et al.'s reference code (github.com/ofirpress/attention_with_linear_biases)."""
    def get_slopes_power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]
    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return (get_slopes_power_of_2(closest_power_of_2)
            + alibi_paper_slopes(2 * closest_power_of_2)[0::2][:n - closest_power_of_2])


def alibi_bias(slopes, Tq, Tk):
    """(1, H, Tq, Tk): -m_h |i + Tk - Tq - j|, the distance measured from the bottom-right diagonal."""
    j = torch.arange(Tk).view(1, 1, 1, Tk)
    i = torch.arange(Tq).view(1, 1, Tq, 1)
    m = torch.tensor(slopes, dtype=torch.float64).view(1, -1, 1, 1)
    return -m * (i + Tk - Tq - j).abs()


def masked_softmax(scores, vis, float_mask=None, fill=None):
    """Softmax over the last axis of scores (B, H, Tq, Tk) with visibility vis.

    Default: masked keys weigh 0 and a row with no visible key is all zeros.
    fill (d2l mode): masked scores are replaced by the finite value fill, so an empty row is uniform.
    Returns the weights and the log-sum-exp of the masked scores (-inf for an empty row).
    """
    z = scores
    if float_mask is not None:
        # where() keeps -inf + x out of the graph: only visible entries carry the float mask.
        z = z + torch.where(vis, float_mask.expand_as(vis), torch.zeros(()))
    if fill is not None:
        z = torch.where(vis, z, torch.full((), float(fill)))
        return torch.softmax(z, dim=-1), torch.logsumexp(z, dim=-1)
    row_any = vis.any(dim=-1, keepdim=True)
    z = torch.where(vis, z, torch.full((), -math.inf))
    z_safe = torch.where(row_any, z, torch.zeros(()))  # empty rows: finite softmax, multiplied by 0 below
    p = torch.softmax(z_safe, dim=-1) * row_any
    lse = torch.where(row_any.squeeze(-1), torch.logsumexp(z_safe, dim=-1), torch.full((), -math.inf))
    return p, lse


def sdpa(q, k, v, scale=None, softcap=None, valid_lens=None, causal=None, bool_mask=None,
         float_mask=None, fill=None, window=None, alibi=None):
    """Scaled dot-product attention of docs/semantics.md in any rank 2..4, with GQA."""
    rank = q.dim()
    q4, k4, v4 = as_rank4(q), as_rank4(k), as_rank4(v)
    B, H, Tq, d = q4.shape
    Hkv, Tk = k4.shape[1], k4.shape[2]
    k4 = k4.repeat_interleave(H // Hkv, dim=1)  # query head h reads kv head h // (H / Hkv)
    v4 = v4.repeat_interleave(H // Hkv, dim=1)
    s = (1.0 / math.sqrt(d) if scale is None else scale) * q4 @ k4.transpose(-1, -2)
    if softcap:
        s = softcap * torch.tanh(s / softcap)
    if alibi is not None:  # after the scale (and softcap), before the masks
        s = s + alibi_bias(alibi, Tq, Tk)
    vis = visibility(B, H, Tq, Tk, valid_lens, causal, bool_mask, float_mask, window)
    p, lse = masked_softmax(s, vis, float_mask, fill)
    out = p @ v4
    return from_rank4(out, rank), from_rank4(p, rank), lse


def additive_scores(q, k, wq, wk, wv):
    """w_v . tanh(q Wq + k Wk) for q (B, Tq, dq), k (B, Tk, dk): (B, Tq, Tk)."""
    feat = torch.tanh((q @ wq).unsqueeze(2) + (k @ wk).unsqueeze(1))
    return feat @ wv


def scored_attention(scores3, v, valid_lens=None, causal=None, fill=None, window=None, alibi=None):
    """Masked softmax of ready scores (B, Tq, Tk) (H = 1), then weights @ v."""
    s = scores3.unsqueeze(1)
    B, _, Tq, Tk = s.shape
    if alibi is not None:
        s = s + alibi_bias(alibi, Tq, Tk)
    vis = visibility(B, 1, Tq, Tk, valid_lens, causal, window=window)
    p, _ = masked_softmax(s, vis, fill=fill)
    return (p @ v.unsqueeze(1)).squeeze(1), p.squeeze(1)


# ---------------------------------------------------------------- case builders

CASES = []


def grads_of(output, grad_out, tensors):
    """d(sum(output * grad_out)) / d(each of tensors); zeros where a tensor does not contribute."""
    gs = torch.autograd.grad(output, tensors, grad_out, allow_unused=True)
    return [torch.zeros_like(t) if g is None else g for t, g in zip(tensors, gs)]


def mask_options(valid_lens=None, causal=None, bool_mask=None, float_mask=None, fill=None, window=None,
                 alibi=None, alibi_option=None):
    """The API's mask options; alibi_option is what the case passes (true or the slopes)."""
    opts = {}
    if window is not None:
        opts["window"] = list(window)
    if alibi is not None:
        opts["alibi"] = alibi_option if alibi_option is not None else [enc_num(m) for m in alibi]
    if valid_lens is not None:
        opts["validLens"] = valid_lens
    if causal is not None:
        opts["causal"] = causal
    if bool_mask is not None:
        opts["attnMask"] = enc_bool(bool_mask)
    if float_mask is not None:
        opts["attnMask"] = enc_float_mask(float_mask)
    if fill is not None:
        opts["maskFill"] = fill
    return opts


def sdpa_case(name, seed, q_shape, k_shape, v_shape, scale=None, softcap=None, valid_lens=None,
              causal=None, bool_mask=None, float_mask=None, fill=None, window=None, alibi=None,
              alibi_option=None, fn="scaledDotProductAttention"):
    gen = torch.Generator().manual_seed(seed)
    q, k, v = draw(gen, *q_shape), draw(gen, *k_shape), draw(gen, *v_shape)
    out, p, lse = sdpa(q, k, v, scale, softcap, valid_lens, causal, bool_mask, float_mask, fill, window, alibi)
    g = draw(gen, *out.shape).detach()
    dq, dk, dv = grads_of(out, g, [q, k, v])
    options = mask_options(valid_lens, causal, bool_mask, float_mask, fill, window, alibi, alibi_option)
    if fn == "attention":
        options["scoring"] = "scaled-dot"
    if scale is not None:
        options["scale"] = scale
    if softcap is not None:
        options["softcap"] = softcap
    expected = {"output": enc(out), "weights": enc(p), "dq": enc(dq), "dk": enc(dk), "dv": enc(dv)}
    if fill is None and fn == "scaledDotProductAttention":  # d2l mode's lse is of the filled scores
        expected["lse"] = enc(lse.reshape(out.shape[:-1]))
    CASES.append({"name": name, "fn": fn,
                  "inputs": {"q": enc(q), "k": enc(k), "v": enc(v)}, "options": options,
                  "gradOutput": enc(g), "expected": expected})


def softmax_case(name, seed, shape, valid_lens=None, causal=None, fill=None, window=None, alibi=None):
    """maskedSoftmax of x (B, Tq, Tk) and maskedSoftmaxBackward through the same mask."""
    gen = torch.Generator().manual_seed(seed)
    x = draw(gen, *shape, spread=2.0)
    x4 = as_rank4(x)
    B, H, Tq, Tk = x4.shape
    vis = visibility(B, H, Tq, Tk, valid_lens, causal, window=window)
    z4 = x4 + alibi_bias(alibi, Tq, Tk) if alibi is not None else x4
    p4, _ = masked_softmax(z4, vis, fill=fill)
    p = from_rank4(p4, x.dim())
    g = draw(gen, *shape).detach()
    (dx,) = grads_of(p, g, [x])
    CASES.append({"name": name, "fn": "maskedSoftmax", "inputs": {"x": enc(x)},
                  "options": mask_options(valid_lens, causal, fill=fill, window=window, alibi=alibi),
                  "gradOutput": enc(g),
                  "expected": {"output": enc(p), "dx": enc(dx)}})


def additive_case(name, seed, B, Tq, Tk, dq, dk, dv, h, valid_lens=None, causal=None, via_attention=False,
                  window=None, alibi=None):
    gen = torch.Generator().manual_seed(seed)
    q, k, v = draw(gen, B, Tq, dq), draw(gen, B, Tk, dk), draw(gen, B, Tk, dv)
    wq, wk, wv = draw(gen, dq, h), draw(gen, dk, h), draw(gen, h)
    out, p = scored_attention(additive_scores(q, k, wq, wk, wv), v, valid_lens, causal, window=window, alibi=alibi)
    g = draw(gen, *out.shape).detach()
    dq_, dk_, dv_, dwq, dwk, dwv = grads_of(out, g, [q, k, v, wq, wk, wv])
    options = mask_options(valid_lens, causal, window=window, alibi=alibi)
    weights = {"wq": enc(wq), "wk": enc(wk), "wv": enc(wv)}
    if via_attention:
        options.update({"scoring": "additive", "params": weights})
    else:
        options.update(weights)
    CASES.append({"name": name, "fn": "attention" if via_attention else "additiveAttention",
                  "inputs": {"q": enc(q), "k": enc(k), "v": enc(v)}, "options": options,
                  "gradOutput": enc(g),
                  "expected": {"output": enc(out), "weights": enc(p), "dq": enc(dq_), "dk": enc(dk_),
                               "dv": enc(dv_), "dwq": enc(dwq), "dwk": enc(dwk), "dwv": enc(dwv)}})


def scoring_case(name, seed, scoring, B, Tq, Tk, dq, dk, dv, scale=None, valid_lens=None, causal=None):
    """attention(q, k, v, {scoring}) for dot, general (q^T W k) and concat (w . [q; k])."""
    gen = torch.Generator().manual_seed(seed)
    q, k, v = draw(gen, B, Tq, dq), draw(gen, B, Tk, dk), draw(gen, B, Tk, dv)
    params, tensors = {}, [q, k, v]
    if scoring == "general":
        w = draw(gen, dq, dk)
        s = q @ w @ k.transpose(-1, -2)
    elif scoring == "concat":
        w = draw(gen, dq + dk)
        s = (q @ w[:dq]).unsqueeze(-1) + (k @ w[dq:]).unsqueeze(-2)
    elif scoring == "dot":
        w = None
        s = q @ k.transpose(-1, -2)
    else:
        raise ValueError(scoring)
    if w is not None:
        params["w"] = enc(w)
        tensors.append(w)
    s = s * (1.0 if scale is None else scale)
    out, p = scored_attention(s, v, valid_lens, causal)
    g = draw(gen, *out.shape).detach()
    grads = grads_of(out, g, tensors)
    options = mask_options(valid_lens, causal)
    options["scoring"] = scoring
    if params:
        options["params"] = params
    if scale is not None:
        options["scale"] = scale
    expected = {"output": enc(out), "weights": enc(p), "dq": enc(grads[0]), "dk": enc(grads[1]),
                "dv": enc(grads[2])}
    if w is not None:
        expected["dw"] = enc(grads[3])
    CASES.append({"name": name, "fn": "attention", "inputs": {"q": enc(q), "k": enc(k), "v": enc(v)},
                  "options": options, "gradOutput": enc(g), "expected": expected})


def rotate_half(x):
    """Hugging Face Llama (modeling_llama.py): rotates half the hidden dims of the input."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rotate_every_two(x):
    """GPT-J (modeling_gptj.py): the pairs (2c, 2c + 1)."""
    x1 = x[..., ::2]
    x2 = x[..., 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def rope_ref(x, base=10000.0, offset=0, interleaved=False):
    """x (..., T, d): Llama's apply_rotary_pos_emb (x cos + rotate_half(x) sin) or GPT-J's, in float64."""
    T, d = x.shape[-2], x.shape[-1]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    t = torch.arange(offset, offset + T, dtype=torch.float64)
    freqs = torch.outer(t, inv_freq)                      # (T, d/2)
    if interleaved:
        emb = freqs.repeat_interleave(2, dim=-1)          # GPT-J's duplicate_interleave
        return x * emb.cos() + rotate_every_two(x) * emb.sin()
    emb = torch.cat((freqs, freqs), dim=-1)               # Llama's rotary embedding
    return x * emb.cos() + rotate_half(x) * emb.sin()


def rope_case(name, seed, shape, base=None, offset=None, interleaved=None):
    gen = torch.Generator().manual_seed(seed)
    x = draw(gen, *shape)
    options = {}
    if base is not None:
        options["base"] = base
    if offset is not None:
        options["offset"] = offset
    if interleaved is not None:
        options["interleaved"] = interleaved
    y = rope_ref(x, base or 10000.0, offset or 0, bool(interleaved))
    g = draw(gen, *shape).detach()
    (dx,) = grads_of(y, g, [x])
    CASES.append({"name": name, "fn": "rope", "inputs": {"x": enc(x)}, "options": options,
                  "gradOutput": enc(g), "expected": {"output": enc(y), "dx": enc(dx)}})


def split_heads(t, heads):
    """(B, T, heads * w) -> (B, heads, T, w): head h owns columns h*w .. (h+1)*w - 1."""
    B, T, n = t.shape
    return t.reshape(B, T, heads, n // heads).transpose(1, 2)


def layer_case(name, seed, fn, x_shape, d_q, d_out, heads=1, kv_heads=1, causal=None, valid_lens=None,
               use_wo=False, window=None, alibi=None, alibi_option=None, rope=None):
    """selfAttention (heads 1, no Wo) or multiHeadAttention (Wo) with given weights."""
    gen = torch.Generator().manual_seed(seed)
    x = draw(gen, *x_shape)
    d_in = x_shape[-1]
    wq = draw(gen, d_in, heads * d_q, spread=0.5)
    wk = draw(gen, d_in, kv_heads * d_q, spread=0.5)
    wv = draw(gen, d_in, kv_heads * d_out, spread=0.5)
    wo = draw(gen, heads * d_out, heads * d_out, spread=0.5) if use_wo else None
    x3 = x if x.dim() == 3 else x.unsqueeze(0)
    q = split_heads(x3 @ wq, heads)
    k = split_heads(x3 @ wk, kv_heads)
    v = split_heads(x3 @ wv, kv_heads)
    if rope is not None:  # Llama: rotary positions on q and k per head, after the projections
        q = rope_ref(q, rope.get("base", 10000.0), 0, rope.get("interleaved", False))
        k = rope_ref(k, rope.get("base", 10000.0), 0, rope.get("interleaved", False))
    o, _, _ = sdpa(q, k, v, scale=1.0 / math.sqrt(d_q), valid_lens=valid_lens, causal=causal, window=window,
                   alibi=alibi)
    B, _, T, _ = o.shape
    out = o.transpose(1, 2).reshape(B, T, heads * d_out)
    if use_wo:
        out = out @ wo
    if x.dim() == 2:
        out = out.squeeze(0)
    g = draw(gen, *out.shape).detach()
    tensors = [x, wq, wk, wv] + ([wo] if use_wo else [])
    grads = grads_of(out, g, tensors)
    layer = {"wq": enc(wq), "wk": enc(wk), "wv": enc(wv)}
    if use_wo:
        layer.update({"wo": enc(wo), "dModel": d_in, "heads": heads, "kvHeads": kv_heads})
    if causal is not None:
        layer["causal"] = causal
    layer.update(mask_options(window=window, alibi=alibi, alibi_option=alibi_option))
    if rope is not None:
        layer["rope"] = rope
    forward = {"validLens": valid_lens} if valid_lens is not None else {}
    expected = {"output": enc(out), "dx": enc(grads[0]), "dwq": enc(grads[1]), "dwk": enc(grads[2]),
                "dwv": enc(grads[3])}
    if use_wo:
        expected["dwo"] = enc(grads[4])
    CASES.append({"name": name, "fn": fn, "layer": layer, "inputs": {"x": enc(x)}, "forward": forward,
                  "gradOutput": enc(g), "expected": expected})


def build_cases():
    # plain ranks: the output has the rank of q
    sdpa_case("sdpa rank 2 (T, d), Tq != Tk, dv != d", 101, (3, 4), (5, 4), (5, 3))
    sdpa_case("sdpa rank 3 (B, T, d)", 102, (2, 3, 4), (2, 5, 4), (2, 5, 2))
    sdpa_case("sdpa rank 4 (B, H, T, d)", 103, (2, 2, 3, 4), (2, 2, 4, 4), (2, 2, 4, 3))
    sdpa_case("sdpa grouped-query heads H 4, Hkv 2", 104, (1, 4, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3))
    # masks
    sdpa_case("sdpa validLens (B)", 110, (2, 3, 4), (2, 5, 4), (2, 5, 3), valid_lens=[2, 4])
    sdpa_case("sdpa validLens (B, Tq) with an empty row", 111, (2, 3, 4), (2, 5, 4), (2, 5, 3),
              valid_lens=[[1, 0, 3], [5, 2, 4]])
    sdpa_case("sdpa validLens (B) on rank 4 with GQA", 112, (2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 3),
              valid_lens=[3, 1])
    sdpa_case("sdpa causal top-left, Tq 3 < Tk 5", 120, (1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3),
              causal="top-left")
    sdpa_case("sdpa causal bottom-right, Tq 3 < Tk 5", 121, (1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3),
              causal="bottom-right")
    sdpa_case("sdpa causal bottom-right, Tq 5 > Tk 3: first rows empty", 122, (1, 1, 5, 4), (1, 1, 3, 4),
              (1, 1, 3, 2), causal="bottom-right")
    sdpa_case("sdpa causal top-left intersected with validLens (B, Tq)", 123, (2, 4, 3), (2, 4, 3), (2, 4, 2),
              causal="top-left", valid_lens=[[4, 1, 2, 0], [3, 3, 3, 3]])
    gen = torch.Generator().manual_seed(130)
    sdpa_case("sdpa bool attnMask (Tq, Tk) broadcast over B and H", 131, (2, 2, 3, 4), (2, 2, 5, 4),
              (2, 2, 5, 3), bool_mask=torch.rand(3, 5, generator=gen) > 0.35)
    bm = torch.tensor([[1, 1, 0, 1, 0], [0, 0, 0, 0, 0]], dtype=torch.bool).view(2, 1, 1, 5)
    sdpa_case("sdpa bool attnMask (B, 1, 1, Tk) with an all-false batch", 132, (2, 2, 3, 4), (2, 2, 5, 4),
              (2, 2, 5, 3), bool_mask=bm)
    fm = torch.round(torch.randn(1, 2, 3, 5, generator=gen) * 16) / 16
    fm[0, 0, 1, 3] = -math.inf
    fm[0, 1, 2, :] = -math.inf  # a row masked by the float mask alone: zeros
    sdpa_case("sdpa float attnMask (1, H, Tq, Tk) with -inf entries", 133, (2, 2, 3, 4), (2, 2, 5, 4),
              (2, 2, 5, 3), float_mask=fm)
    fm2 = torch.round(torch.randn(5, generator=gen) * 16) / 16
    sdpa_case("sdpa float attnMask (Tk) with causal bottom-right", 134, (2, 3, 4), (2, 5, 4), (2, 5, 3),
              float_mask=fm2, causal="bottom-right")
    # scale, softcap, d2l mode
    sdpa_case("sdpa softcap 1.5", 140, (1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 3), softcap=1.5, scale=1.0)
    sdpa_case("sdpa softcap 2 with validLens", 141, (2, 3, 4), (2, 5, 4), (2, 5, 3), softcap=2.0,
              valid_lens=[3, 5])
    sdpa_case("sdpa custom scale 0.3", 142, (2, 3, 4), (2, 5, 4), (2, 5, 3), scale=0.3)
    sdpa_case("sdpa d2l fill -1e6: valid length 0 gives a uniform row", 150, (2, 3, 4), (2, 5, 4),
              (2, 5, 3), valid_lens=[[2, 0, 5], [1, 3, 0]], fill=-1e6)
    # masked softmax alone
    softmax_case("maskedSoftmax validLens (B) as in d2l", 160, (2, 2, 4), valid_lens=[2, 3])
    softmax_case("maskedSoftmax validLens (B, Tq) with an empty row", 161, (2, 2, 4), valid_lens=[[1, 3], [0, 4]])
    softmax_case("maskedSoftmax d2l fill -1e6, empty row uniform", 162, (2, 2, 4), valid_lens=[[1, 3], [0, 4]],
                 fill=-1e6)
    softmax_case("maskedSoftmax causal bottom-right (Tq 3, Tk 5)", 163, (1, 3, 5), causal="bottom-right")
    # other scorings
    additive_case("additiveAttention with validLens, weight gradients", 170, 2, 3, 5, 4, 3, 2, 6,
                  valid_lens=[3, 5])
    additive_case("additiveAttention causal with an empty row via validLens (B, Tq)", 171, 2, 3, 3, 2, 2, 3, 4,
                  valid_lens=[[3, 0, 3], [1, 2, 3]], causal="top-left")
    additive_case("attention scoring additive", 172, 2, 2, 4, 3, 5, 2, 4, valid_lens=[4, 2], via_attention=True)
    scoring_case("attention scoring general q^T W k, dq != dk", 180, "general", 2, 3, 4, 4, 3, 2,
                 valid_lens=[4, 2])
    scoring_case("attention scoring concat w . [q; k]", 181, "concat", 2, 3, 4, 3, 2, 2, valid_lens=[3, 4])
    scoring_case("attention scoring dot with scale 0.5 and causal", 182, "dot", 1, 4, 4, 3, 3, 2, scale=0.5,
                 causal="top-left")
    # layers
    layer_case("selfAttention rank 2 x (T, d_in)", 190, "selfAttention", (4, 3), 2, 3)
    layer_case("selfAttention causal, validLens, batch", 191, "selfAttention", (2, 4, 3), 2, 2,
               causal="top-left", valid_lens=[4, 2])
    layer_case("multiHeadAttention heads 2 with Wo", 192, "multiHeadAttention", (2, 3, 4), 2, 2, heads=2,
               kv_heads=2, valid_lens=[3, 2], use_wo=True)
    layer_case("multiHeadAttention heads 4, kvHeads 2, causal", 193, "multiHeadAttention", (2, 4, 8), 2, 2,
               heads=4, kv_heads=2, causal="top-left", use_wo=True)


def build_modern_cases():
    """Sliding window, ALiBi and RoPE (issue 12)."""
    # sliding window
    sdpa_case("sdpa window [2, 0] (Mistral's causal band)", 200, (1, 2, 6, 4), (1, 2, 6, 4), (1, 2, 6, 3),
              window=(2, 0))
    sdpa_case("sdpa window [1, 2], Tq 3 < Tk 7, GQA", 201, (2, 4, 3, 4), (2, 2, 7, 4), (2, 2, 7, 3),
              window=(1, 2))
    sdpa_case("sdpa window [0, 1], Tq 6 > Tk 3: rows before the diagonal empty", 202, (1, 1, 6, 4), (1, 1, 3, 4),
              (1, 1, 3, 2), window=(0, 1))
    sdpa_case("sdpa window [-1, 1] with causal top-left and validLens", 203, (2, 5, 4), (2, 6, 4), (2, 6, 3),
              window=(-1, 1), causal="top-left", valid_lens=[[5, 1, 0, 3, 6], [2, 2, 6, 6, 4]])
    sdpa_case("sdpa window [1, 1] with softcap 2 and d2l fill", 204, (2, 4, 4), (2, 5, 4), (2, 5, 3),
              window=(1, 1), softcap=2.0, fill=-1e6)
    softmax_case("maskedSoftmax window [1, 0]", 205, (2, 4, 6), window=(1, 0))
    additive_case("additiveAttention window [1, 1] with validLens", 206, 2, 3, 5, 3, 4, 2, 4,
                  valid_lens=[5, 3], window=(1, 1))
    sdpa_case("attention scaled-dot window [2, -1]", 207, (2, 4, 4), (2, 6, 4), (2, 6, 3), window=(2, -1),
              fn="attention")
    # ALiBi
    sdpa_case("sdpa alibi true, H 4 (slopes 1/4 .. 1/256), causal", 210, (1, 4, 5, 4), (1, 4, 5, 4), (1, 4, 5, 3),
              alibi=alibi_paper_slopes(4), alibi_option=True, causal="bottom-right")
    sdpa_case("sdpa alibi true, H 6 (the paper's rule for H not a power of two), Tq 3 < Tk 6, GQA", 211,
              (1, 6, 3, 4), (1, 3, 6, 4), (1, 3, 6, 2), alibi=alibi_paper_slopes(6), alibi_option=True)
    sdpa_case("sdpa alibi slopes given, with window [2, 1], float mask and softcap", 212, (1, 2, 4, 4), (1, 2, 5, 4),
              (1, 2, 5, 3), alibi=[0.75, -0.25], window=(2, 1), softcap=1.5,
              float_mask=torch.tensor([[0.5, -0.25, 0.0, -math.inf, 1.0]]))
    softmax_case("maskedSoftmax alibi [0.5] with validLens", 213, (2, 3, 5), valid_lens=[4, 2], alibi=[0.5])
    additive_case("attention scoring additive with alibi [0.375] and causal", 214, 2, 4, 4, 3, 3, 2, 5,
                  causal="top-left", via_attention=True, alibi=[0.375])
    # RoPE
    rope_case("rope rotate_half (Llama), (B, H, T, d)", 220, (2, 2, 5, 8))
    rope_case("rope interleaved (GPT-J), (T, d)", 221, (6, 4), interleaved=True)
    rope_case("rope base 500000 (Llama 3), offset 37, (B, T, d)", 222, (2, 3, 6), base=500000.0, offset=37)
    rope_case("rope interleaved, base 100, offset 1000, d 2", 223, (1, 4, 2), base=100.0, offset=1000,
              interleaved=True)
    # the layers
    layer_case("multiHeadAttention heads 4, kvHeads 2, rope (rotate_half), causal", 230, "multiHeadAttention",
               (2, 5, 8), 2, 2, heads=4, kv_heads=2, causal="top-left", use_wo=True, rope={})
    layer_case("multiHeadAttention heads 4, kvHeads 1 (multi-query), rope interleaved base 100, window [2, 0]",
               231, "multiHeadAttention", (1, 6, 16), 4, 4, heads=4, kv_heads=1, use_wo=True,
               rope={"base": 100.0, "interleaved": True}, window=(2, 0))
    layer_case("multiHeadAttention heads 2, alibi true, validLens", 232, "multiHeadAttention", (2, 4, 4), 2, 2,
               heads=2, kv_heads=2, use_wo=True, valid_lens=[4, 3], alibi=alibi_paper_slopes(2), alibi_option=True)
    layer_case("selfAttention window [1, 1] and alibi [0.5]", 233, "selfAttention", (5, 3), 2, 3, window=(1, 1),
               alibi=[0.5])


def main():
    build_cases()
    build_modern_cases()
    doc = {
        "about": "Golden vectors for attention-lab, generated by tests/golden/gen_golden.py with PyTorch "
                 + torch.__version__ + " in float64 (autograd gradients). Do not edit by hand.",
        "count": len(CASES),
        "cases": CASES,
    }
    text = json.dumps(doc, separators=(",", ":"))
    with open(OUT_PATH, "w") as f:
        f.write(text + "\n")
    print("wrote %s: %d cases, %d bytes" % (os.path.relpath(OUT_PATH), len(CASES), len(text)))


if __name__ == "__main__":
    main()
