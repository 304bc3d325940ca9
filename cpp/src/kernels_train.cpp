// Row kernels of the training ops (train_ops.hpp): LayerNorm, GELU and the AdamW update, each body
// written once over the vector type and finished by the Lane1 tail, as in kernels.cpp.
#include <cmath>

#include "attnlab/kernels.hpp"
#include "kernels_vec.hpp"

namespace attnlab::kernels {

using vec::exp_nonpositive;
using vec::fma;  // the relaxed build's madd, not xsimd's (kernels_vec.hpp)
using vec::lanes;
using vec::over_vectors_then_tail;

// x (n) -> y (n): the mean, then the variance about it, then y = (x - mean) rstd gamma + beta.
void f32_layer_norm_row(float* y, const float* x, const float* gamma, const float* beta, float eps, int n,
                        float* mean, float* rstd) {
  // pass 1: the mean
  const float mu = f32_sum(x, n) / float(n);
  // pass 2: the biased variance about it (PyTorch's LayerNorm divides by n, not n - 1)
  float squares = 0.0f;
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const V mv(mu);
    V acc = zero;
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V centred = V::load_unaligned(x + i) - mv;
      acc = fma(centred, centred, acc);
    }
    squares += reduce_add(acc);
    return i;
  });
  const float r = 1.0f / std::sqrt(squares / float(n) + eps);
  // pass 3: normalise, scale and shift
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    (void)zero;
    const V mv(mu), rv(r);
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V xhat = (V::load_unaligned(x + i) - mv) * rv;
      fma(xhat, V::load_unaligned(gamma + i), V::load_unaligned(beta + i)).store_unaligned(y + i);
    }
    return i;
  });
  *mean = mu;
  *rstd = r;
}

// The forward's pass 3, y = xhat gamma + beta, gives dgamma = dy xhat, dbeta = dy and d xhat = g =
// dy gamma. Passes 1-2, xhat = (x - mean) rstd with mean and rstd functions of the whole row, give
// (d mean / dx_i = 1/n, d rstd / dx_i = -rstd^2 xhat_i / n)
//   dx_i = rstd (g_i - mean_j(g_j) - xhat_i mean_j(g_j xhat_j)).
void f32_layer_norm_row_backward(float* dx, float* dgamma, float* dbeta, const float* x, const float* gamma,
                                 const float* dy, float mean, float rstd, int n) {
  // pass 1 backward: the two means through which the normalisation couples every element
  float sum_g = 0.0f, sum_g_xhat = 0.0f;
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    const V mv(mean), rv(rstd);
    V acc_g = zero, acc_g_xhat = zero;
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V xhat = (V::load_unaligned(x + i) - mv) * rv;
      const V g = V::load_unaligned(dy + i) * V::load_unaligned(gamma + i);
      acc_g = acc_g + g;
      acc_g_xhat = fma(g, xhat, acc_g_xhat);
    }
    sum_g += reduce_add(acc_g);
    sum_g_xhat += reduce_add(acc_g_xhat);
    return i;
  });
  const float mean_g = sum_g / float(n), mean_g_xhat = sum_g_xhat / float(n);
  // pass 2 backward: dx, dgamma, dbeta
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    (void)zero;
    const V mv(mean), rv(rstd), mg(mean_g), mgx(mean_g_xhat);
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V xhat = (V::load_unaligned(x + i) - mv) * rv;
      const V d = V::load_unaligned(dy + i);
      const V g = d * V::load_unaligned(gamma + i);
      fma(rv, g - mg - xhat * mgx, V::load_unaligned(dx + i)).store_unaligned(dx + i);
      fma(d, xhat, V::load_unaligned(dgamma + i)).store_unaligned(dgamma + i);
      (V::load_unaligned(dbeta + i) + d).store_unaligned(dbeta + i);
    }
    return i;
  });
}

namespace {

constexpr float kSqrt2OverPi = 0.797884560802865355f;  // sqrt(2 / pi)
constexpr float kGeluCubic = 0.044715f;
constexpr float kSqrtHalf = 0.707106781186547524f;    // 1 / sqrt(2)
constexpr float kInvSqrt2Pi = 0.398942280401432678f;  // 1 / sqrt(2 pi), the normal density at 0

// y = GELU(x) (gradient == false) or y = dy GELU'(x) (gradient == true), one body per form:
//   tanh:  u = sqrt(2/pi) x (1 + 0.044715 x^2), t = tanh(u)
//          GELU = 0.5 x (1 + t)
//          GELU' = 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 0.044715 x^2)
//   exact: Phi = 0.5 (1 + erf(x / sqrt 2)), phi = exp(-x^2 / 2) / sqrt(2 pi)
//          GELU = x Phi,  GELU' = Phi + x phi
// The tanh is xsimd's (libm's in the tails), not the rational f32_tanh: that one stops at |u| = 9
// an ulp short of +-1, and the derivative's 0.5 x (1 - t^2) s (1 + 0.13 x^2) grows that ulp into
// 3.4e-6 at x = -8, where GELU' is 0 to float precision (and PyTorch's is 0).
template <bool kTanhForm, bool kGradient>
void gelu(float* y, const float* x, const float* dy, int n) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    (void)zero;
    const V half(0.5f), one(1.0f), s(kSqrt2OverPi), c(kGeluCubic), c3(3.0f * kGeluCubic),
        sqrt_half(kSqrtHalf), minus_half(-0.5f), inv_sqrt_2pi(kInvSqrt2Pi);
    const vec::ExpConstants<V> exp_k;
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V xv = V::load_unaligned(x + i), x2 = xv * xv;
      V out;
      if constexpr (kTanhForm) {
        const V t = tanh(s * xv * fma(c, x2, one));
        const V half_one_plus_t = half * (one + t);
        out = kGradient ? half_one_plus_t + half * xv * (one - t * t) * s * fma(c3, x2, one)
                        : xv * half_one_plus_t;
      } else {
        const V cdf = half * (one + erf(xv * sqrt_half));
        out = kGradient ? fma(xv * inv_sqrt_2pi, exp_nonpositive(minus_half * x2, exp_k), cdf) : xv * cdf;
      }
      if constexpr (kGradient) out = out * V::load_unaligned(dy + i);  // load before store: dx may alias dy
      out.store_unaligned(y + i);
    }
    return i;
  });
}

}  // namespace

void f32_gelu(float* y, const float* x, int n, bool tanh_form) {
  if (tanh_form)
    gelu<true, false>(y, x, nullptr, n);
  else
    gelu<false, false>(y, x, nullptr, n);
}

void f32_gelu_backward(float* dx, const float* x, const float* dy, int n, bool tanh_form) {
  if (tanh_form)
    gelu<true, true>(dx, x, dy, n);
  else
    gelu<false, true>(dx, x, dy, n);
}

// torch.optim.AdamW's single-tensor step, element by element: decay first (decoupled, on the
// parameter before the update), the moments, then p += -step_size m / (sqrt(v) / bias2_sqrt + eps)
// with the division by bias2_sqrt where torch has it, so the float32 results round alike.
void f32_adamw(float* param, float* m, float* v, const float* grad, int n, const AdamWUpdate& u) {
  over_vectors_then_tail([&](auto zero, int i) {
    using V = decltype(zero);
    (void)zero;
    const V decay(u.decay), beta1(u.beta1), rest1(1.0f - u.beta1), beta2(u.beta2), rest2(1.0f - u.beta2),
        minus_step(-u.step_size), bias2_sqrt(u.bias2_sqrt), eps(u.eps), scale(u.grad_scale);
    for (; i + lanes<V>() <= n; i += lanes<V>()) {
      const V g = V::load_unaligned(grad + i) * scale;
      const V mv = V::load_unaligned(m + i) * beta1 + rest1 * g;
      const V vv = V::load_unaligned(v + i) * beta2 + rest2 * (g * g);
      const V denominator = sqrt(vv) / bias2_sqrt + eps;
      (V::load_unaligned(param + i) * decay + minus_step * (mv / denominator)).store_unaligned(param + i);
      mv.store_unaligned(m + i);
      vv.store_unaligned(v + i);
    }
    return i;
  });
}

}  // namespace attnlab::kernels
