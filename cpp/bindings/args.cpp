#include "args.hpp"

#include <cmath>

namespace attnlab::binding {

double count(double a, double b, double c, double d) { return a * b * c * d; }

// 2^128 - 2^103, halfway between FLT_MAX and 2^128: doubles from there on round to infinity.
bool finite_in_float32(double x) { return std::fabs(x) < 0x1.ffffffp+127; }
// 2^-150, half the smallest subnormal: doubles up to it round to 0.
bool positive_in_float32(double x) { return x > 0x1p-150 && finite_in_float32(x); }
// 1 - 2^-25, halfway between the largest float below 1 and 1.
bool float_below_one(double x) { return x < 1 - 0x1p-25; }

namespace {

constexpr double kMaxSafeInteger = 9007199254740992.0;  // 2^53: JS numbers are exact below it

bool is_stride(double s) { return s >= 0 && s < 2147483648.0 && std::floor(s) == s; }

void check_scale(Boundary& check, double scale) {
  check.require(positive_in_float32(scale), "scale must be finite and > 0 in float32");
}

void check_options(Boundary& check, double scale, double softcap, double dropout, double seed) {
  check_scale(check, scale);
  check.require(finite_in_float32(softcap) && softcap >= 0, "softcap must be finite in float32 and >= 0");
  // 1 - 1e-9 is 1 in float32, and the kept values are divided by 1 - dropout.
  check.require(dropout >= 0 && float_below_one(dropout), "dropout must be in [0, 1) in float32");
  check.require(seed >= 0 && seed < kMaxSafeInteger && std::floor(seed) == seed,
                "seed must be an integer in [0, 2^53)");
}

}  // namespace

MaskSpec to_mask(Boundary& check, const MaskArgs& m, const Buffers& b, int B, int H, int Tq, int Tk) {
  MaskSpec mask;
  check.require(m.causal >= 0 && m.causal <= 2, "causal must be 0 (none), 1 (top-left) or 2 (bottom-right)");
  check.require(b.boolMask == 0 || b.floatMask == 0, "give at most one of boolMask and floatMask");
  check.require(is_stride(m.strideB) && is_stride(m.strideH) && is_stride(m.strideI) && is_stride(m.strideJ),
                "mask strides must be integers in [0, 2^31)");
  check.require(!m.useFill || finite_in_float32(m.fill), "fill must be finite in float32");
  auto is_window_side = [](double w) { return w >= -1 && w < 2147483648.0 && std::floor(w) == w; };
  check.require(is_window_side(m.windowLeft) && is_window_side(m.windowRight),
                "window must be two integers >= -1 (-1: no limit on that side)");

  const double lens = m.validLensPerRow ? count(B, Tq) : double(B);
  check.span("validLens", b.validLens, lens, 4, true);
  // The furthest element a (B, H, Tq, Tk) walk with these strides reads, plus one.
  const double extent =
      (B - 1) * m.strideB + (H - 1) * m.strideH + (Tq - 1) * m.strideI + (Tk - 1) * m.strideJ + 1;
  check.span("boolMask", b.boolMask, extent, 1, true);
  check.span("floatMask", b.floatMask, extent, 4, true);
  check.span("alibiSlopes", b.alibiSlopes, H, 4, true);
  if (!check.ok()) return mask;

  if (b.alibiSlopes != 0) {
    // -slope * distance must stay a float32 number for distances up to Tq + Tk.
    const float* slopes = f32(b.alibiSlopes);
    for (int h = 0; h < H; ++h)
      check.require(std::isfinite(slopes[h]) && std::fabs(double(slopes[h])) * (double(Tq) + Tk) < 3.4e38,
                    "alibi slopes must be finite and |slope| (Tq + Tk) within float32");
  }

  if (b.validLens != 0) {
    // The core trusts lengths to be non-negative; one pass over (B) or (B, Tq) ints is cheap.
    const int32_t* len = reinterpret_cast<const int32_t*>(b.validLens);
    for (double i = 0; i < lens; ++i) check.require(len[std::size_t(i)] >= 0, "validLens must be >= 0");
  }
  mask.valid_lens = reinterpret_cast<const int32_t*>(b.validLens);
  mask.valid_lens_per_row = m.validLensPerRow;
  mask.causal = Causal(m.causal);
  mask.bool_mask = reinterpret_cast<const uint8_t*>(b.boolMask);
  mask.float_mask = f32(b.floatMask);
  mask.mask_stride_b = std::size_t(m.strideB);
  mask.mask_stride_h = std::size_t(m.strideH);
  mask.mask_stride_i = std::size_t(m.strideI);
  mask.mask_stride_j = std::size_t(m.strideJ);
  mask.use_fill = m.useFill;
  if (m.useFill) mask.fill = float(m.fill);  // checked above; an unused fill is never cast
  mask.window_left = int(m.windowLeft);
  mask.window_right = int(m.windowRight);
  mask.alibi_slopes = f32(b.alibiSlopes);
  return mask;
}

AttentionDims to_dims(Boundary& check, const SdpaArgs& a) {
  check.positive(
      {{"B", a.B}, {"H", a.H}, {"Hkv", a.Hkv}, {"Tq", a.Tq}, {"Tk", a.Tk}, {"d", a.d}, {"dv", a.dv}});
  check.require(!check.ok() || a.H % a.Hkv == 0, "H must be a multiple of Hkv");
  return {a.B, a.H, a.Hkv, a.Tq, a.Tk, a.d, a.dv};
}

SdpaOptions to_sdpa_options(Boundary& check, const SdpaArgs& a, const Buffers& b) {
  SdpaOptions opt;
  check_options(check, a.scale, a.softcap, a.dropout, a.seed);
  if (!check.ok()) return opt;  // no cast of an unchecked double to float: out of range it is undefined
  opt.scale = float(a.scale);
  opt.softcap = float(a.softcap);
  opt.dropout = float(a.dropout);
  opt.seed = uint64_t(a.seed);
  if (check.ok()) opt.mask = to_mask(check, a.mask, b, a.B, a.H, a.Tq, a.Tk);
  return opt;
}

ScoringDims to_dims(Boundary& check, const ScoringArgs& a) {
  check.positive({{"B", a.B},
                  {"H", a.H},
                  {"Hkv", a.Hkv},
                  {"Tq", a.Tq},
                  {"Tk", a.Tk},
                  {"dq", a.dq},
                  {"dk", a.dk},
                  {"dv", a.dv}});
  check.require(!check.ok() || a.H % a.Hkv == 0, "H must be a multiple of Hkv");
  check.require(a.scoring >= 0 && a.scoring <= 4, "scoring must be 0 (dot) .. 4 (concat)");
  if (a.scoring == int(Scoring::additive)) check.positive("hidden", a.hidden);
  if (a.scoring == int(Scoring::dot) || a.scoring == int(Scoring::scaled_dot))
    check.require(a.dq == a.dk, "dot-product scorings need dq == dk");
  return {a.B, a.H, a.Hkv, a.Tq, a.Tk, a.dq, a.dk, a.dv, a.hidden};
}

ScoringOptions to_scoring_options(Boundary& check, const ScoringArgs& a, const Buffers& b) {
  ScoringOptions opt;
  check_scale(check, a.scale);
  if (!check.ok()) return opt;
  opt.scoring = Scoring(a.scoring);
  opt.scale = float(a.scale);
  opt.mask = to_mask(check, a.mask, b, a.B, a.H, a.Tq, a.Tk);
  return opt;
}

LayerDims to_dims(Boundary& check, const LayerArgs& a) {
  check.positive({{"B", a.B},
                  {"T", a.T},
                  {"dIn", a.dIn},
                  {"dQ", a.dQ},
                  {"dV", a.dV},
                  {"heads", a.heads},
                  {"kvHeads", a.kvHeads}});
  check.require(a.dOut >= 0, "dOut must be >= 0");
  check.require(!check.ok() || a.heads % a.kvHeads == 0, "heads must be a multiple of kvHeads");
  LayerDims dims;
  dims.B = a.B;
  dims.T = a.T;
  dims.d_in = a.dIn;
  dims.d_q = a.dQ;
  dims.d_v = a.dV;
  dims.heads = a.heads;
  dims.kv_heads = a.kvHeads;
  dims.d_out = a.dOut;
  return dims;
}

SdpaOptions to_layer_options(Boundary& check, const LayerArgs& a, const Buffers& b, int keys) {
  SdpaOptions opt;
  check_scale(check, a.scale);
  if (!check.ok()) return opt;
  opt.scale = float(a.scale);
  opt.mask = to_mask(check, a.mask, b, a.B, a.heads, a.T, keys);
  return opt;
}

SdpaOptions to_layer_options(Boundary& check, const LayerArgs& a, const Buffers& b) {
  return to_layer_options(check, a, b, a.T);
}

RopeOptions to_layer_rope(Boundary& check, const LayerArgs& a) {
  RopeOptions opt;
  if (!a.rope) return opt;
  check.require(a.dQ % 2 == 0, "rope needs an even dQ (it rotates pairs of features)");
  check.require(positive_in_float32(a.ropeBase), "rope base must be finite and > 0 in float32");
  check.require(
      a.ropeOffset >= 0 && a.ropeOffset < kMaxSafeInteger && std::floor(a.ropeOffset) == a.ropeOffset,
      "rope offset must be an integer in [0, 2^53)");
  opt.base = a.ropeBase;
  opt.offset = a.ropeOffset;
  opt.interleaved = a.ropeInterleaved;
  return opt;
}

RopeOptions to_rope_options(Boundary& check, const RopeArgs& a) {
  check.positive({{"N", a.N}, {"T", a.T}, {"d", a.d}});
  check.require(a.d % 2 == 0, "rope needs an even d (it rotates pairs of features)");
  check.require(positive_in_float32(a.base), "base must be finite and > 0 in float32");
  check.require(a.offset >= 0 && a.offset < kMaxSafeInteger && std::floor(a.offset) == a.offset,
                "offset must be an integer in [0, 2^53)");
  RopeOptions opt;
  opt.base = a.base;
  opt.offset = a.offset;
  opt.interleaved = a.interleaved;
  return opt;
}

}  // namespace attnlab::binding
