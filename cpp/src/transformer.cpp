// The decoder-only transformer (transformer.hpp): its parameter block, the forward pass, the
// backward that walks it in reverse, and the AdamW step. Per layer, with N = B T rows and
// w = Hkv dh the keys' (and values') width:
//   pass 1: a = LayerNorm(x)                       (N, d)
//   pass 2: qkv = a Wqkv^T + b                      (N, d + 2w); q (B, H, T, dh), k, v (B, Hkv, T, dh)
//           split into heads, q and k rotated with rope
//   pass 3: o = sdpa(q, k, v), causal (+ window, + ALiBi), scale 1/sqrt(dh)    (B, H, T, dh)
//   pass 4: x = x + concat(o) Wout^T + b            (N, d)
//   pass 5 (mlp): x = x + fc2(GELU(fc1(LayerNorm(x))))
// then logits = LayerNorm(x) Wunembed^T + b (N, V).
#include "attnlab/transformer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"

namespace attnlab {

namespace {

// The model's parameters in state_dict order: name, shape, and where Layer keeps its pointer.
struct Entry {
  std::string name;
  std::vector<int> shape;
};

std::vector<Entry> entries(const TransformerConfig& c) {
  const int d = c.d_model, qkv_rows = d + 2 * c.kv() * c.head_width();
  std::vector<Entry> e = {{"tok.weight", {c.vocab, d}}};
  if (c.positions == Positions::learned) e.push_back({"pos.weight", {c.max_length, d}});
  for (int i = 0; i < c.layers; ++i) {
    const std::string p = "layers." + std::to_string(i) + ".";
    e.push_back({p + "norm.weight", {d}});
    e.push_back({p + "norm.bias", {d}});
    e.push_back({p + "qkv.weight", {qkv_rows, d}});
    e.push_back({p + "qkv.bias", {qkv_rows}});
    e.push_back({p + "out.weight", {d, d}});
    e.push_back({p + "out.bias", {d}});
    if (c.mlp > 0) {
      e.push_back({p + "mlp_norm.weight", {d}});
      e.push_back({p + "mlp_norm.bias", {d}});
      e.push_back({p + "fc1.weight", {c.mlp, d}});
      e.push_back({p + "fc1.bias", {c.mlp}});
      e.push_back({p + "fc2.weight", {d, c.mlp}});
      e.push_back({p + "fc2.bias", {d}});
    }
  }
  e.push_back({"norm.weight", {d}});
  e.push_back({"norm.bias", {d}});
  if (!c.tie) e.push_back({"unembed.weight", {c.vocab, d}});
  e.push_back({"unembed.bias", {c.vocab}});
  return e;
}

std::size_t rows(int n, int width) { return std::size_t(n) * std::size_t(width); }

// Between (N, width) rows with `stride` floats each, heads side by side from column `first`, and
// head layout (B, heads, T, dh): the qkv split (to_heads) and its backward, and the heads'
// concatenation (stride = width = d, first = 0).
void rearrange(int B, int T, int heads, int dh, float* flat, int stride, int first, float* head_layout,
               bool to_heads) {
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < heads; ++h)
      for (int t = 0; t < T; ++t) {
        float* f = flat + rows(b * T + t, stride) + first + h * dh;
        float* g = head_layout + rows((b * heads + h) * T + t, dh);
        if (to_heads)
          std::memcpy(g, f, sizeof(float) * std::size_t(dh));
        else
          std::memcpy(f, g, sizeof(float) * std::size_t(dh));
      }
}

// Uniform [0, 1) floats and standard normals from std::mt19937_64's raw output, which the C++
// standard fixes bit for bit (its distributions it does not): the same seed, the same weights in
// every build.
struct Draws {
  std::mt19937_64 bits;
  explicit Draws(uint64_t seed) : bits(seed) {}
  double uniform() { return double(bits() >> 11) * 0x1p-53; }
  double normal() {  // Box-Muller
    const double u = 1.0 - uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
  }
};

}  // namespace

// What one (B, T) needs, carved from work_ (or only counted when base is null).
struct Transformer::Work {
  struct PerLayer {
    float *x, *a, *mean, *rstd, *qkv, *q, *k, *v, *o, *lse, *concat;
    float *mid, *a2, *mean2, *rstd2, *h, *g;  // mlp only
  };
  std::vector<PerLayer> layer;
  float *x_final, *a_final, *mean_final, *rstd_final, *logits, *probs;
  // backward
  float *dx, *da, *dqkv, *dq, *dk, *dv, *dout, *dh, *sdpa, *weights;
  std::uint64_t floats = 0;
};

Transformer::Work Transformer::carve(int B, int T, float* base) const {
  const TransformerConfig& c = config_;
  const int N = B * T, d = c.d_model, dh = c.head_width(), w = c.kv() * dh, qkv = d + 2 * w;
  Work s;
  auto take = [&](float*& at, std::size_t n) {
    at = base != nullptr ? base + std::size_t(s.floats) : nullptr;
    s.floats += (n + 15) / 16 * 16;
  };
  s.layer.resize(std::size_t(c.layers));
  for (auto& l : s.layer) {
    take(l.x, rows(N, d));
    take(l.a, rows(N, d));
    take(l.mean, N);
    take(l.rstd, N);
    take(l.qkv, rows(N, qkv));
    take(l.q, rows(N, d));
    take(l.k, rows(N, w));
    take(l.v, rows(N, w));
    take(l.o, rows(N, d));
    take(l.lse, rows(N, c.heads));
    take(l.concat, rows(N, d));
    if (c.mlp > 0) {
      take(l.mid, rows(N, d));
      take(l.a2, rows(N, d));
      take(l.mean2, N);
      take(l.rstd2, N);
      take(l.h, rows(N, c.mlp));
      take(l.g, rows(N, c.mlp));
    }
  }
  take(s.x_final, rows(N, d));
  take(s.a_final, rows(N, d));
  take(s.mean_final, N);
  take(s.rstd_final, N);
  take(s.logits, rows(N, c.vocab));
  take(s.probs, rows(N, c.vocab));
  take(s.dx, rows(N, d));
  take(s.da, rows(N, d));
  take(s.dqkv, rows(N, qkv));
  take(s.dq, rows(N, d));
  take(s.dk, rows(N, w));
  take(s.dv, rows(N, w));
  take(s.dout, rows(N, d));
  take(s.dh, rows(N, std::max(c.mlp, 1)));
  take(s.weights, rows(B * c.heads * T, T));  // the trace's attentions of one layer
  take(s.sdpa, std::size_t(sdpa_scratch_floats({B, c.heads, c.kv(), T, T, dh, dh})));
  return s;
}

Transformer::Transformer(const TransformerConfig& config) : config_(config) {
  for (const Entry& e : entries(config_)) {
    std::size_t n = 1;
    for (int s : e.shape) n *= std::size_t(s);
    info_.push_back({e.name, e.shape, count_, n});
    count_ += n;
  }
  arena_.assign(4 * count_, 0.0f);
  // Layer pointers by name: the offsets of entries() in order.
  std::size_t at = info_[0].size + (config_.positions == Positions::learned ? info_[1].size : 0);
  float* p = arena_.data();
  auto next = [&](std::size_t n) {
    float* q = p + at;
    at += n;
    return q;
  };
  const int d = config_.d_model, qkv_rows = d + 2 * config_.kv() * config_.head_width();
  for (int i = 0; i < config_.layers; ++i) {
    Layer l;
    l.norm_w = next(d);
    l.norm_b = next(d);
    l.qkv_w = next(rows(qkv_rows, d));
    l.qkv_b = next(qkv_rows);
    l.out_w = next(rows(d, d));
    l.out_b = next(d);
    if (config_.mlp > 0) {
      l.mlp_norm_w = next(d);
      l.mlp_norm_b = next(d);
      l.fc1_w = next(rows(config_.mlp, d));
      l.fc1_b = next(config_.mlp);
      l.fc2_w = next(rows(d, config_.mlp));
      l.fc2_b = next(d);
    }
    layers_.push_back(l);
  }
  if (config_.positions == Positions::alibi) alibi_ = alibi_slopes(config_.heads);
  init(0);
}

void Transformer::reset_optimizer() {
  std::fill(arena_.begin() + std::ptrdiff_t(2 * count_), arena_.end(), 0.0f);
  steps_ = 0;
}

void Transformer::init(uint64_t seed) {
  Draws draw(seed);
  for (const ParameterInfo& p : info_) {
    float* x = arena_.data() + p.offset;
    const std::string& n = p.name;
    const bool norm = n.find("norm.") != std::string::npos;
    if (norm) {
      std::fill(x, x + p.size, n.size() > 6 && n.compare(n.size() - 6, 6, "weight") == 0 ? 1.0f : 0.0f);
    } else if (n == "tok.weight" || n == "pos.weight") {
      for (std::size_t i = 0; i < p.size; ++i) x[i] = float(draw.normal());
    } else {  // a linear's weight (out, in) or bias (out): bound 1/sqrt(in)
      const int fan_in = (n.find("fc2.") != std::string::npos ? config_.mlp : config_.d_model);
      const double bound = 1.0 / std::sqrt(double(fan_in));
      for (std::size_t i = 0; i < p.size; ++i) x[i] = float((2.0 * draw.uniform() - 1.0) * bound);
    }
  }
  reset_optimizer();
}

void Transformer::run_forward(int B, int T, const int32_t* tokens, const Work& s,
                              const TransformerTrace& trace) {
  const TransformerConfig& c = config_;
  const int N = B * T, d = c.d_model, H = c.heads, Hkv = c.kv(), dh = c.head_width(), w = Hkv * dh,
            qkv = d + 2 * w;
  const float* P = arena_.data();
  // the embeddings: x = tok[tokens] (+ pos[t])
  float* x0 = c.layers > 0 ? s.layer[0].x : s.x_final;
  embedding_forward(N, d, tokens, P, x0);
  if (c.positions == Positions::learned)
    for (int b = 0; b < B; ++b) kernels::f32_axpy(x0 + rows(b * T, d), 1.0f, P + info_[1].offset, T * d);
  const RopeOptions rope{c.rope_base, 0.0, false};
  SdpaOptions opt;
  opt.scale = float(1.0 / std::sqrt(double(dh)));
  opt.mask.causal = Causal::top_left;
  if (c.window > 0) opt.mask.window_left = c.window - 1;
  if (c.positions == Positions::alibi) opt.mask.alibi_slopes = alibi_.data();
  const AttentionDims dims{B, H, Hkv, T, T, dh, dh};
  for (int i = 0; i < c.layers; ++i) {
    const Layer& p = layers_[i];
    const Work::PerLayer& l = s.layer[i];
    float* next = i + 1 < c.layers ? s.layer[i + 1].x : s.x_final;
    // pass 1-2: LayerNorm, the qkv projection, split into heads, rotated
    layer_norm_forward(N, d, c.norm_eps, l.x, p.norm_w, p.norm_b, l.a, l.mean, l.rstd);
    linear_forward(N, d, qkv, l.a, p.qkv_w, p.qkv_b, l.qkv);
    rearrange(B, T, H, dh, l.qkv, qkv, 0, l.q, true);
    rearrange(B, T, Hkv, dh, l.qkv, qkv, d, l.k, true);
    rearrange(B, T, Hkv, dh, l.qkv, qkv, d + w, l.v, true);
    if (c.positions == Positions::rope) {
      rope_forward(B * H, T, dh, rope, l.q, l.q);
      rope_forward(B * Hkv, T, dh, rope, l.k, l.k);
    }
    // pass 3: attention
    SdpaForwardOutputs out;
    out.out = l.o;
    out.lse = l.lse;
    if (trace.attentions != nullptr) out.weights = s.weights;
    sdpa_forward(dims, opt, l.q, l.k, l.v, out, s.sdpa);
    if (trace.attentions != nullptr)  // (B, H, T, T) of this layer -> (B, L, H, T, T)
      for (int b = 0; b < B; ++b)
        std::memcpy(trace.attentions + rows(b * c.layers + i, H * T * T), s.weights + rows(b, H * T * T),
                    sizeof(float) * rows(H * T, T));
    // pass 4: heads concatenated, projected, added to the residual
    rearrange(B, T, H, dh, l.concat, d, 0, l.o, false);
    float* after_attention = c.mlp > 0 ? l.mid : next;
    linear_forward(N, d, d, l.concat, p.out_w, p.out_b, after_attention);
    kernels::f32_axpy(after_attention, 1.0f, l.x, N * d);
    // pass 5: the MLP block
    if (c.mlp > 0) {
      layer_norm_forward(N, d, c.norm_eps, l.mid, p.mlp_norm_w, p.mlp_norm_b, l.a2, l.mean2, l.rstd2);
      linear_forward(N, d, c.mlp, l.a2, p.fc1_w, p.fc1_b, l.h);
      gelu_forward(rows(N, c.mlp), c.gelu, l.h, l.g);
      linear_forward(N, c.mlp, d, l.g, p.fc2_w, p.fc2_b, next);
      kernels::f32_axpy(next, 1.0f, l.mid, N * d);
    }
    if (trace.residual != nullptr)
      std::memcpy(trace.residual + rows(i, N * d), next, sizeof(float) * rows(N, d));
  }
  // the final LayerNorm and the unembedding
  const ParameterInfo& unembed_b = info_.back();
  const float* norm_w = P + info_[info_.size() - (c.tie ? 3 : 4)].offset;
  const float* unembed_w = c.tie ? P : P + info_[info_.size() - 2].offset;
  layer_norm_forward(N, d, c.norm_eps, s.x_final, norm_w, norm_w + d, s.a_final, s.mean_final, s.rstd_final);
  linear_forward(N, d, c.vocab, s.a_final, unembed_w, P + unembed_b.offset, s.logits);
}

std::uint64_t Transformer::workspace_floats(int B, int T) const { return carve(B, T, nullptr).floats; }

void Transformer::forward(int B, int T, const int32_t* tokens, float* logits, const TransformerTrace& trace) {
  const std::size_t need = std::size_t(workspace_floats(B, T));
  if (work_.size() < need) work_.resize(need);
  const Work s = carve(B, T, work_.data());
  run_forward(B, T, tokens, s, trace);
  std::memcpy(logits, s.logits, sizeof(float) * rows(B * T, config_.vocab));
}

// The forward in reverse; each step names the forward line it differentiates. dx carries the
// residual stream's gradient down the layers; the LayerNorm backwards add to it.
float Transformer::backward(int B, int T, const int32_t* tokens, const int32_t* targets,
                            const uint8_t* mask) {
  const TransformerConfig& c = config_;
  const int N = B * T, d = c.d_model, H = c.heads, Hkv = c.kv(), dh = c.head_width(), w = Hkv * dh,
            qkv = d + 2 * w;
  const std::size_t need = std::size_t(workspace_floats(B, T));
  if (work_.size() < need) work_.resize(need);
  const Work s = carve(B, T, work_.data());
  run_forward(B, T, tokens, s, {});
  const float loss = cross_entropy_forward(N, c.vocab, s.logits, targets, mask, s.probs);

  float* G = arena_.data() + count_;  // gradients, at the parameters' offsets
  std::fill(G, G + count_, 0.0f);
  const float* P = arena_.data();
  auto grad = [&](const float* param) { return G + (param - P); };
  // loss = cross_entropy(logits) -> dlogits (in place of the probabilities)
  cross_entropy_backward(N, c.vocab, targets, mask, s.probs, 1.0f, s.probs);
  // logits = a_final Wu^T + bu -> da_final, dWu (into dtok when tied), dbu
  const std::size_t norm_at = info_[info_.size() - (c.tie ? 3 : 4)].offset;
  const float* unembed_w = c.tie ? P : P + info_[info_.size() - 2].offset;
  linear_backward(N, d, c.vocab, s.a_final, unembed_w, s.probs, s.da, grad(unembed_w),
                  G + info_.back().offset);
  // a_final = LayerNorm(x_final) -> dx
  std::fill(s.dx, s.dx + rows(N, d), 0.0f);
  layer_norm_backward(N, d, s.x_final, P + norm_at, s.mean_final, s.rstd_final, s.da, s.dx, G + norm_at,
                      G + norm_at + d);

  const RopeOptions rope{c.rope_base, 0.0, false};
  SdpaOptions opt;
  opt.scale = float(1.0 / std::sqrt(double(dh)));
  opt.mask.causal = Causal::top_left;
  if (c.window > 0) opt.mask.window_left = c.window - 1;
  if (c.positions == Positions::alibi) opt.mask.alibi_slopes = alibi_.data();
  const AttentionDims dims{B, H, Hkv, T, T, dh, dh};
  for (int i = c.layers - 1; i >= 0; --i) {
    const Layer& p = layers_[i];
    const Work::PerLayer& l = s.layer[i];
    if (c.mlp > 0) {
      // next = mid + fc2(g) -> dg (dx already is d mid's residual share)
      linear_backward(N, c.mlp, d, l.g, p.fc2_w, s.dx, s.dh, grad(p.fc2_w), grad(p.fc2_b));
      // g = GELU(h); h = fc1(a2); a2 = LayerNorm(mid) -> dx += d mid
      gelu_backward(rows(N, c.mlp), c.gelu, l.h, s.dh, s.dh);
      linear_backward(N, d, c.mlp, l.a2, p.fc1_w, s.dh, s.da, grad(p.fc1_w), grad(p.fc1_b));
      layer_norm_backward(N, d, l.mid, p.mlp_norm_w, l.mean2, l.rstd2, s.da, s.dx, grad(p.mlp_norm_w),
                          grad(p.mlp_norm_b));
    }
    // pass 4: after = x + concat Wout^T + b -> dconcat (dx keeps the residual share)
    linear_backward(N, d, d, l.concat, p.out_w, s.dx, s.da, grad(p.out_w), grad(p.out_b));
    rearrange(B, T, H, dh, s.da, d, 0, s.dout, true);
    // pass 3: o = sdpa(q, k, v) -> dq, dk, dv
    sdpa_backward(dims, opt, l.q, l.k, l.v, s.dout, s.dq, s.dk, s.dv, s.sdpa, {l.o, l.lse});
    // pass 2: q, k rotated -> rotated back; the heads' split -> dqkv rows; qkv = a Wqkv^T + b
    if (c.positions == Positions::rope) {
      rope_backward(B * H, T, dh, rope, s.dq, s.dq);
      rope_backward(B * Hkv, T, dh, rope, s.dk, s.dk);
    }
    rearrange(B, T, H, dh, s.dqkv, qkv, 0, s.dq, false);
    rearrange(B, T, Hkv, dh, s.dqkv, qkv, d, s.dk, false);
    rearrange(B, T, Hkv, dh, s.dqkv, qkv, d + w, s.dv, false);
    linear_backward(N, d, qkv, l.a, p.qkv_w, s.dqkv, s.da, grad(p.qkv_w), grad(p.qkv_b));
    // pass 1: a = LayerNorm(x) -> dx += dx through the norm
    layer_norm_backward(N, d, l.x, p.norm_w, l.mean, l.rstd, s.da, s.dx, grad(p.norm_w), grad(p.norm_b));
  }
  // x = tok[tokens] + pos -> dtok scattered, dpos summed over the batch
  embedding_backward(N, d, tokens, s.dx, G);
  if (c.positions == Positions::learned)
    for (int b = 0; b < B; ++b) kernels::f32_axpy(G + info_[1].offset, 1.0f, s.dx + rows(b * T, d), T * d);
  return loss;
}

float Transformer::train_step(int B, int T, const int32_t* tokens, const int32_t* targets,
                              const uint8_t* mask, const AdamWOptions& opt) {
  const float loss = backward(B, T, tokens, targets, mask);
  float* G = arena_.data() + count_;
  if (!std::isfinite(loss)) return loss;
  double squares = 0.0;
  for (const ParameterInfo& p : info_) squares += sum_of_squares(G + p.offset, p.size);
  if (!std::isfinite(squares)) return std::numeric_limits<float>::quiet_NaN();
  // torch.nn.utils.clip_grad_norm_ multiplies every gradient by the factor, before the step
  const float factor = clip_factor(std::sqrt(squares), opt.clip);
  ++steps_;
  for (const ParameterInfo& p : info_)
    adamw_step(p.size, opt, steps_, factor, arena_.data() + p.offset, arena_.data() + 2 * count_ + p.offset,
               arena_.data() + 3 * count_ + p.offset, G + p.offset);
  return loss;
}

void next_token_targets(int B, int T, const int32_t* tokens, int32_t* targets, uint8_t* mask) {
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const bool has_next = t + 1 < T;
      targets[b * T + t] = has_next ? tokens[b * T + t + 1] : 0;
      mask[b * T + t] = has_next ? 1 : 0;
    }
}

std::vector<float> alibi_slopes(int H) {
  auto power_of_two = [](int n) {
    std::vector<float> s;
    const double start = std::pow(2.0, -8.0 / n);
    for (int i = 0; i < n; ++i) s.push_back(float(std::pow(start, i + 1)));
    return s;
  };
  int closest = 1;
  while (closest * 2 <= H) closest *= 2;
  std::vector<float> s = power_of_two(closest);
  if (closest < H) {
    const std::vector<float> extra = power_of_two(2 * closest);
    for (int i = 0; i < H - closest; ++i) s.push_back(extra[std::size_t(2 * i)]);
  }
  return s;
}

}  // namespace attnlab
