// Rotary position embeddings (RoPE, Su et al. 2021), forward and backward.
#pragma once

namespace attnlab {

struct RopeOptions {
  double base = 10000.0;     // frequency i of the d/2 pairs is base^(-2i/d)
  double offset = 0.0;       // the position of row t is offset + t (a decoder's cache length)
  bool interleaved = false;  // false: pairs (c, c + d/2), Hugging Face Llama's rotate_half;
                             // true: pairs (2c, 2c + 1), GPT-J's rotate_every_two
};

// x (N, T, d) -> y (N, T, d), d even: each pair (a, b) of row t is rotated by the angle
// (offset + t) base^(-2i/d):  a' = a cos - b sin,  b' = b cos + a sin.  N is every leading axis
// (B, H, ...) flattened. The angles, their cosines and sines are computed in double and rounded
// once to float, so long positions lose no accuracy to a float32 angle. y may alias x.
void rope_forward(int N, int T, int d, const RopeOptions& opt, const float* x, float* y);

// dy (N, T, d) -> dx (N, T, d): the rotation is orthogonal, so its backward is the rotation by the
// opposite angle (the transpose):  da = da' cos + db' sin,  db = db' cos - da' sin.  dx may alias dy.
void rope_backward(int N, int T, int d, const RopeOptions& opt, const float* dy, float* dx);

}  // namespace attnlab
