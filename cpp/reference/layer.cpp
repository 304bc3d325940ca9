// Reference attention layer: projections and their gradients as plain float64 triple loops
// indexed straight into the (B, T, heads * width) layout (no rearranging copies), with the
// attention itself delegated to the reference sdpa (ref::sdpa_forward / ref::sdpa_backward).
// The projected q, k, v and the head gradients are rounded to float between the stages, as the
// float32 core stores them.
#include <vector>

#include "reference.hpp"

namespace attnlab::ref {
namespace {

// y (B, heads, T, width) = head split of x W, x (B, T, d_in), W (d_in, heads * width).
std::vector<float> project_to_heads(const LayerDims& d, const float* x, const float* W, int heads,
                                    int width) {
  std::vector<float> y(std::size_t(d.B) * heads * d.T * width);
  for (int b = 0; b < d.B; ++b)
    for (int h = 0; h < heads; ++h)
      for (int t = 0; t < d.T; ++t)
        for (int c = 0; c < width; ++c) {
          double s = 0.0;
          for (int r = 0; r < d.d_in; ++r)
            s += double(x[(std::size_t(b) * d.T + t) * d.d_in + r]) *
                 W[std::size_t(r) * heads * width + h * width + c];
          y[((std::size_t(b) * heads + h) * d.T + t) * width + c] = float(s);
        }
  return y;
}

// Gradients of y = head split of x W given dy (B, heads, T, width):
// dW (d_in, heads * width) = x^T dy (overwritten), dx (B, T, d_in) += dy W^T.
void project_to_heads_backward(const LayerDims& d, const float* x, const float* W, int heads, int width,
                               const std::vector<float>& dy, float* dW, std::vector<double>& dx) {
  for (int r = 0; r < d.d_in; ++r)
    for (int h = 0; h < heads; ++h)
      for (int c = 0; c < width; ++c) {
        const std::size_t wi = std::size_t(r) * heads * width + h * width + c;
        double s = 0.0;
        for (int b = 0; b < d.B; ++b)
          for (int t = 0; t < d.T; ++t) {
            const double g = dy[((std::size_t(b) * heads + h) * d.T + t) * width + c];
            s += double(x[(std::size_t(b) * d.T + t) * d.d_in + r]) * g;
            dx[(std::size_t(b) * d.T + t) * d.d_in + r] += g * W[wi];
          }
        dW[wi] = float(s);
      }
}

// Heads (B, H, T, d_v) concatenated along the features: (B, T, H * d_v).
double head_value(const LayerDims& d, const std::vector<float>& heads, int b, int t, int f) {
  const int h = f / d.d_v, c = f % d.d_v;
  return heads[((std::size_t(b) * d.heads + h) * d.T + t) * d.d_v + c];
}

struct Projected {
  std::vector<float> q, k, v, heads;  // heads: attention output (B, H, T, d_v)
};

Projected forward_pass(const LayerDims& d, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                       const RopeOptions* rope) {
  Projected p;
  p.q = project_to_heads(d, x, w.wq, d.heads, d.d_q);
  p.k = project_to_heads(d, x, w.wk, d.kv_heads, d.d_q);
  if (rope != nullptr) {  // the reference rotation matrices, per head
    ref::rope_forward(d.B * d.heads, d.T, d.d_q, *rope, p.q.data(), p.q.data());
    ref::rope_forward(d.B * d.kv_heads, d.T, d.d_q, *rope, p.k.data(), p.k.data());
  }
  p.v = project_to_heads(d, x, w.wv, d.kv_heads, d.d_v);
  p.heads.resize(std::size_t(d.B) * d.heads * d.T * d.d_v);
  SdpaForwardOutputs outs;
  outs.out = p.heads.data();
  sdpa_forward(d.attention(), opt, p.q.data(), p.k.data(), p.v.data(), outs);
  return p;
}

}  // namespace

// x (B, T, d_in) -> out (B, T, out_width).
void layer_forward(const LayerDims& d, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                   float* out, const RopeOptions* rope) {
  const Projected p = forward_pass(d, w, opt, x, rope);
  const int F = d.heads * d.d_v;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.T; ++t)
      for (int o = 0; o < d.out_width(); ++o) {
        double s = 0.0;
        if (d.d_out > 0) {
          for (int f = 0; f < F; ++f)
            s += head_value(d, p.heads, b, t, f) * w.wo[std::size_t(f) * d.d_out + o];
        } else {
          s = head_value(d, p.heads, b, t, o);
        }
        out[(std::size_t(b) * d.T + t) * d.out_width() + o] = float(s);
      }
}

// dout (B, T, out_width) -> dx (B, T, d_in) and every weight gradient.
void layer_backward(const LayerDims& d, const LayerWeights& w, const SdpaOptions& opt, const float* x,
                    const float* dout, float* dx, const LayerGrads& grads, const RopeOptions* rope) {
  const Projected p = forward_pass(d, w, opt, x, rope);
  const int F = d.heads * d.d_v, W = d.out_width();

  // Output projection: dWo = concat^T dout; d(concat) = dout Wo^T, stored in head layout.
  std::vector<float> dheads(p.heads.size());
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.T; ++t)
      for (int f = 0; f < F; ++f) {
        const float* drow = dout + (std::size_t(b) * d.T + t) * W;
        double s = 0.0;
        if (d.d_out > 0) {
          for (int o = 0; o < d.d_out; ++o) s += double(drow[o]) * w.wo[std::size_t(f) * d.d_out + o];
        } else {
          s = drow[f];
        }
        dheads[((std::size_t(b) * d.heads + f / d.d_v) * d.T + t) * d.d_v + f % d.d_v] = float(s);
      }
  if (d.d_out > 0) {
    for (int f = 0; f < F; ++f)
      for (int o = 0; o < d.d_out; ++o) {
        double s = 0.0;
        for (int b = 0; b < d.B; ++b)
          for (int t = 0; t < d.T; ++t)
            s += head_value(d, p.heads, b, t, f) * dout[(std::size_t(b) * d.T + t) * W + o];
        grads.dwo[std::size_t(f) * d.d_out + o] = float(s);
      }
  }

  // Attention, then the three input projections.
  std::vector<float> dq(p.q.size()), dk(p.k.size()), dv(p.v.size());
  sdpa_backward(d.attention(), opt, p.q.data(), p.k.data(), p.v.data(), dheads.data(), dq.data(), dk.data(),
                dv.data());
  if (rope != nullptr) {
    ref::rope_backward(d.B * d.heads, d.T, d.d_q, *rope, dq.data(), dq.data());
    ref::rope_backward(d.B * d.kv_heads, d.T, d.d_q, *rope, dk.data(), dk.data());
  }
  std::vector<double> gx(std::size_t(d.B) * d.T * d.d_in, 0.0);
  project_to_heads_backward(d, x, w.wq, d.heads, d.d_q, dq, grads.dwq, gx);
  project_to_heads_backward(d, x, w.wk, d.kv_heads, d.d_q, dk, grads.dwk, gx);
  project_to_heads_backward(d, x, w.wv, d.kv_heads, d.d_v, dv, grads.dwv, gx);
  for (std::size_t i = 0; i < gx.size(); ++i) dx[i] = float(gx[i]);
}

}  // namespace attnlab::ref
