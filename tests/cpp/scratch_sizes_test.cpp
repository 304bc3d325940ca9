// Scratch sizes are counted in 64 bits: the binding compares them with what one wasm allocation
// holds, so a size past 2^32 (or past INT_MAX in an intermediate product) must come out exact,
// never wrapped to a small number the caller would then reserve. Each expected value is counted
// here from the layouts the sources describe, independently of their code.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "attnlab/layer.hpp"
#include "attnlab/scoring.hpp"
#include "attnlab/sdpa.hpp"

namespace attnlab {
namespace {

using u64 = std::uint64_t;

static_assert(std::is_same_v<decltype(sdpa_scratch_floats(AttentionDims{})), u64>);
static_assert(std::is_same_v<decltype(scoring_scratch_floats(ScoringDims{}, Scoring::additive)), u64>);
static_assert(std::is_same_v<decltype(layer_scratch_floats(LayerDims{})), u64>);

TEST(ScratchSizes, AdditiveAtTqTkHidden23168IsExactlyPast2To32) {
  // The case: 32-bit size_t wrapped this to 194576 floats in wasm.
  const u64 n = 23168, ld = n + 16;  // Tk is a multiple of 64, plus the 16-float row pad
  ScoringDims dims;
  dims.Tq = dims.Tk = dims.hidden = int(n);
  // S, dA (n, n) | QW, dQW (n, h) | KWT, dKWT (h, ld) | KW (n, h) | placement | kept (h, ld)
  const u64 expected = 2 * n * n + 2 * n * n + 2 * n * ld + n * n + 16 + n * ld;
  EXPECT_EQ(expected, 4295161872u);
  EXPECT_EQ(scoring_scratch_floats(dims, Scoring::additive), expected);
}

TEST(ScratchSizes, ConcatCountsTheScoresOfManyHeadsPast2To32) {
  ScoringDims dims;
  dims.B = 8;
  dims.H = dims.Hkv = 4;
  dims.Tq = dims.Tk = 16384;
  const u64 scores = 8ull * 4 * 16384 * 16384, rows = 8ull * 4 * 16384;
  EXPECT_EQ(scoring_scratch_floats(dims, Scoring::concat), 2 * (scores + rows + rows));
}

TEST(ScratchSizes, SdpaFusedBlocksOfWideQueriesPass2To32) {
  // The backward keeps 64 query rows of width d: with d = 2^26 that block alone is 2^32 floats.
  AttentionDims dims;
  dims.d = dims.dv = 1 << 26;
  EXPECT_GE(sdpa_scratch_floats(dims), 64ull << 26);
}

TEST(ScratchSizes, LayerCountsHeadsTimesWidthPastIntMax) {
  // H * d_q = 2^32 overflowed the int widest_projection.
  LayerDims d;
  d.heads = 1 << 16;
  d.d_q = d.d_v = 1 << 16;
  d.d_in = 1;
  const u64 widest = u64(1) << 32;
  // flat (widest) | head_out, dq (H (dv + d)) | dk, dv (Hkv (d + dv)) | sdpa
  const u64 expected =
      widest + (u64(1) << 16) * (u64(2) << 16) + (u64(2) << 16) + sdpa_scratch_floats(d.attention());
  EXPECT_EQ(layer_scratch_floats(d), expected);
}

}  // namespace
}  // namespace attnlab
