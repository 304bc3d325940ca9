// Reference masked softmax in double, one (B, H, Tq) row at a time.
#include <vector>

#include "reference.hpp"
#include "row_math.hpp"

namespace attnlab::ref {

void masked_softmax_forward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* x, float* y) {
  std::vector<double> z(Tk), p(Tk);
  bool is_visible;
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < Tq; ++i) {
        const std::size_t row = ((std::size_t(b) * H + h) * Tq + i) * Tk;
        for (int j = 0; j < Tk; ++j)
          z[j] = detail::masked_score(mask, Tq, Tk, b, h, i, j, x[row + j], &is_visible);
        detail::softmax_row(z.data(), p.data(), Tk);
        for (int j = 0; j < Tk; ++j) y[row + j] = float(p[j]);
      }
}

// dx_j = y_j (dy_j - sum_k y_k dy_k), and 0 at masked keys (their input was replaced).
void masked_softmax_backward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* y,
                             const float* dy, float* dx) {
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < Tq; ++i) {
        const std::size_t row = ((std::size_t(b) * H + h) * Tq + i) * Tk;
        double y_dot_dy = 0.0;
        for (int j = 0; j < Tk; ++j) y_dot_dy += double(y[row + j]) * dy[row + j];
        for (int j = 0; j < Tk; ++j) {
          const bool is_visible = visible(mask, Tq, Tk, b, h, i, j, nullptr);
          dx[row + j] = is_visible ? float(y[row + j] * (dy[row + j] - y_dot_dy)) : 0.0f;
        }
      }
}

}  // namespace attnlab::ref
