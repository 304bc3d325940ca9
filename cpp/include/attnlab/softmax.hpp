// Masked softmax over the last axis, forward and backward (d2l's masked_softmax, generalised).
#pragma once

#include "attnlab/dims.hpp"

namespace attnlab {

// x (B, H, Tq, Tk) -> y (B, H, Tq, Tk): y[row] = softmax(x[row] + bias[row]) over the keys
// visible under `mask`; masked keys get 0, a row with nothing visible is all zeros (or uniform
// in d2l fill mode). Stable: the row max is subtracted first. x and y may alias.
void masked_softmax_forward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* x, float* y);

// y, dy, dx (B, H, Tq, Tk): dx = y * (dy - dot(y, dy)) per row, and dx = 0 at masked keys
// (in d2l fill mode the masked inputs were replaced by a constant, so no gradient reaches them).
// With an empty MaskSpec this is the plain softmax backward. dy and dx may alias.
void masked_softmax_backward(int B, int H, int Tq, int Tk, const MaskSpec& mask, const float* y,
                             const float* dy, float* dx);

}  // namespace attnlab
