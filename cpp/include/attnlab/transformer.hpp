// A decoder-only transformer that trains in place: token embedding, positions (learned, rotary,
// ALiBi or none), L blocks of pre-LayerNorm causal multi-head attention (grouped kv heads, optional
// sliding window) each with a residual, and optionally an MLP block (its own LayerNorm, GELU,
// residual); a final LayerNorm and the unembedding (optionally tied to the embedding).
//
// The parameters are those of tools/model/transformer.py's Transformer, with its names, shapes and
// row-major layouts (the PyTorch state_dict; attention-only with learned positions it is
// tools/model/train_induction.py's Model):
//   tok.weight (V, d); pos.weight (maxLength, d) when learned
//   layers.{i}.norm.weight, .bias (d)
//   layers.{i}.qkv.weight (d + 2 Hkv dh, d), .bias   rows: queries (H heads of dh), keys, values
//   layers.{i}.out.weight (d, d), .bias (d)
//   layers.{i}.mlp_norm.weight, .bias (d); layers.{i}.fc1.weight (mlp, d), .bias (mlp);
//   layers.{i}.fc2.weight (d, mlp), .bias (d)                         when mlp > 0
//   norm.weight, .bias (d); unembed.weight (V, d) (absent when tied: tok.weight serves), unembed.bias (V)
// Parameters, gradients and the AdamW moments live in one block for the model's lifetime; the
// activations of a step in a workspace that is kept across steps and grows only for a larger B T.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attnlab/rope.hpp"
#include "attnlab/train_ops.hpp"

namespace attnlab {

enum class Positions : int { learned = 0, rope = 1, alibi = 2, none = 3 };

// Checked by the caller (the binding): every size >= 1 but mlp >= 0, d_model % heads == 0,
// heads % kv_heads == 0, head width even for rope, window >= 1 or 0.
struct TransformerConfig {
  int vocab = 1, d_model = 1, layers = 1, heads = 1;
  int kv_heads = 0;  // 0: heads
  int max_length = 1;
  Positions positions = Positions::learned;
  double rope_base = 10000.0;  // pairs (c, c + dh/2), Llama's rotate_half
  int window = 0;              // 0: none; w: query t sees keys t - w + 1 .. t (Mistral's sliding_window)
  int mlp = 0;                 // hidden width; 0: attention-only
  Gelu gelu = Gelu::none;
  bool tie = false;  // unembed.weight is tok.weight
  float norm_eps = 1e-5f;

  int kv() const { return kv_heads > 0 ? kv_heads : heads; }
  int head_width() const { return d_model / heads; }
};

struct ParameterInfo {
  std::string name;
  std::vector<int> shape;
  std::size_t offset = 0, size = 0;  // in floats, into parameters() / gradients()
};

// Optional outputs of forward: nullptr for what is not wanted.
struct TransformerTrace {
  float* attentions = nullptr;  // (B, L, H, T, T) the softmax weights of every head
  float* residual = nullptr;    // (L, B, T, d) the residual stream after each layer
};

class Transformer {
 public:
  explicit Transformer(const TransformerConfig& config);
  // Its layers point into its own block: a copy would point into the original's. Moving keeps the
  // block (and so the pointers) where it is.
  Transformer(const Transformer&) = delete;
  Transformer& operator=(const Transformer&) = delete;
  Transformer(Transformer&&) = default;
  Transformer& operator=(Transformer&&) = default;

  const TransformerConfig& config() const { return config_; }
  const std::vector<ParameterInfo>& parameter_info() const { return info_; }
  std::size_t parameter_count() const { return count_; }
  float* parameters() { return arena_.data(); }
  const float* gradients() const { return arena_.data() + count_; }
  int steps() const { return steps_; }
  // Floats of the workspace a call on (B, T) needs (activations, their gradients, the attention's
  // scratch); the model holds 4 parameter_count() more for its parameters, gradients and moments.
  // A binding checks both against its memory before it creates a model or calls one on a larger
  // batch (the workspace grows then), with B T d small enough that no size_t here wraps.
  std::uint64_t workspace_floats(int B, int T) const;

  // Deterministic initialisation from seed, PyTorch's distributions (not its generator):
  // embeddings N(0, 1), linear weights and biases U(-1/sqrt(fan_in), 1/sqrt(fan_in)), norms 1 and 0.
  // Also clears the AdamW state.
  void init(uint64_t seed);
  void reset_optimizer();

  // tokens (B, T) in [0, vocab), T <= max_length -> logits (B, T, V).
  void forward(int B, int T, const int32_t* tokens, float* logits, const TransformerTrace& trace = {});
  // The mean cross-entropy of logits (B, T, V) against targets (B, T) over mask (B, T) (null: all;
  // at least one must count), and every parameter's gradient (overwritten, gradients()).
  float backward(int B, int T, const int32_t* tokens, const int32_t* targets, const uint8_t* mask);
  // backward, then one AdamW step (clip > 0: gradients scaled by clip_grad_norm_'s factor first).
  // A loss or gradient that is not finite leaves parameters, moments and step count untouched and
  // returns NaN (the loss, or NaN for a gradient), which the caller reports.
  float train_step(int B, int T, const int32_t* tokens, const int32_t* targets, const uint8_t* mask,
                   const AdamWOptions& opt);

 private:
  // Pointers of one layer's parameters into arena_ (the gradients sit count_ floats further on).
  struct Layer {
    float *norm_w, *norm_b, *qkv_w, *qkv_b, *out_w, *out_b;
    float *mlp_norm_w = nullptr, *mlp_norm_b = nullptr, *fc1_w = nullptr, *fc1_b = nullptr, *fc2_w = nullptr,
          *fc2_b = nullptr;
  };
  struct Work;
  Work carve(int B, int T, float* base) const;
  void run_forward(int B, int T, const int32_t* tokens, const Work& w, const TransformerTrace& trace);

  TransformerConfig config_;
  std::vector<ParameterInfo> info_;
  std::vector<Layer> layers_;  // pointers into arena_
  std::size_t count_ = 0;
  std::vector<float> arena_;  // parameters | gradients | first moments | second moments
  std::vector<float> work_;   // activations and scratch of the last (B, T)
  std::vector<float> alibi_;  // (H) slopes when positions == alibi
  int steps_ = 0;
};

// The default targets: the next token. targets[b, t] = tokens[b, t + 1] and mask 1 for t < T - 1;
// the last position gets target 0, mask 0 (logits[:, :-1] against tokens[:, 1:]).
void next_token_targets(int B, int T, const int32_t* tokens, int32_t* targets, uint8_t* mask);

// Press et al.'s slopes for H heads (their get_slopes): 2^(-8 (i + 1) / H) for a power of two,
// else those of the nearest power of two below, then every other one of twice that.
std::vector<float> alibi_slopes(int H);

}  // namespace attnlab
