// mask_row() and the reference's visible() against hand-written causal patterns, and against each
// other on every key of every case of the table (validLens, causal, bool/float masks, broadcast).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attention_cases.hpp"
#include "attnlab/dims.hpp"
#include "reference.hpp"

namespace attnlab {
namespace {

// The MaskRow contract of dims.hpp, read literally: visible when start <= j < limit, the bool row
// allows it and the float row is not -inf; *bias receives the float row's value and the ALiBi bias.
bool row_allows(const MaskRow& row, int j, double* bias) {
  *bias = 0.0;
  if (j < row.start || j >= row.limit) return false;
  if (row.bool_row != nullptr && row.bool_row[j * row.stride_j] == 0) return false;
  if (row.float_row != nullptr) {
    const float value = row.float_row[j * row.stride_j];
    if (std::isinf(value) && value < 0) return false;
    *bias = value;
  }
  if (row.alibi) *bias -= double(row.alibi_slope) * std::abs(row.alibi_center - j);
  return true;
}

// "1" where key j is visible from query i, one string per query row.
std::vector<std::string> pattern_by_mask_row(const MaskSpec& mask, int Tq, int Tk) {
  std::vector<std::string> rows;
  for (int i = 0; i < Tq; ++i) {
    const MaskRow row = mask_row(mask, Tq, Tk, 0, 0, i);
    std::string s;
    double bias;
    for (int j = 0; j < Tk; ++j) s += row_allows(row, j, &bias) ? '1' : '0';
    rows.push_back(s);
  }
  return rows;
}

std::vector<std::string> pattern_by_reference(const MaskSpec& mask, int Tq, int Tk) {
  std::vector<std::string> rows;
  for (int i = 0; i < Tq; ++i) {
    std::string s;
    for (int j = 0; j < Tk; ++j) s += ref::visible(mask, Tq, Tk, 0, 0, i, j, nullptr) ? '1' : '0';
    rows.push_back(s);
  }
  return rows;
}

struct CausalPattern {
  Causal causal;
  int Tq, Tk;
  std::vector<std::string> expected;
};

TEST(MaskRow, CausalAlignmentsMatchHandWrittenPatternsInBothCoreAndReference) {
  const std::vector<CausalPattern> table = {
      {Causal::top_left, 2, 4, {"1000", "1100"}},      // j <= i
      {Causal::bottom_right, 2, 4, {"1110", "1111"}},  // j <= i + Tk - Tq = i + 2
      {Causal::top_left, 4, 2, {"10", "11", "11", "11"}},
      {Causal::bottom_right, 4, 2, {"00", "00", "10", "11"}},  // j <= i - 2: the first rows see nothing
      {Causal::top_left, 3, 3, {"100", "110", "111"}},
      {Causal::bottom_right, 3, 3, {"100", "110", "111"}},  // square: both alignments agree
      {Causal::none, 2, 3, {"111", "111"}},
  };
  for (const auto& p : table) {
    MaskSpec mask;
    mask.causal = p.causal;
    const std::string what = "causal " + std::to_string(int(p.causal)) + " Tq=" + std::to_string(p.Tq) +
                             " Tk=" + std::to_string(p.Tk);
    EXPECT_EQ(pattern_by_mask_row(mask, p.Tq, p.Tk), p.expected) << what;
    EXPECT_EQ(pattern_by_reference(mask, p.Tq, p.Tk), p.expected) << what;
  }
}

struct WindowPattern {
  int left, right;
  Causal causal;
  int Tq, Tk;
  std::vector<std::string> expected;
};

TEST(MaskRow, SlidingWindowsMatchHandWrittenPatternsInBothCoreAndReference) {
  // FlashAttention: visible when i + Tk - Tq - left <= j <= i + Tk - Tq + right, -1 = open side.
  const std::vector<WindowPattern> table = {
      {1, 0, Causal::none, 4, 4, {"1000", "1100", "0110", "0011"}},
      {0, 1, Causal::none, 3, 3, {"110", "011", "001"}},
      {1, -1, Causal::none, 3, 3, {"111", "111", "011"}},
      {-1, 0, Causal::none, 2, 4, {"1110", "1111"}},         // = bottom-right causal
      {1, 1, Causal::none, 2, 5, {"00111", "00011"}},        // the diagonal is i + 3: keys i + 2 .. i + 4
      {0, 0, Causal::none, 4, 2, {"00", "00", "10", "01"}},  // the diagonal is i - 2
      {2, 2, Causal::top_left, 3, 5, {"10000", "01000", "00100"}},  // i <= j <= i + 4, and j <= i
  };
  for (const WindowPattern& p : table) {
    MaskSpec mask;
    mask.window_left = p.left;
    mask.window_right = p.right;
    mask.causal = p.causal;
    const std::string what = "window " + std::to_string(p.left) + "," + std::to_string(p.right) + " causal " +
                             std::to_string(int(p.causal)) + " Tq=" + std::to_string(p.Tq) +
                             " Tk=" + std::to_string(p.Tk);
    EXPECT_EQ(pattern_by_mask_row(mask, p.Tq, p.Tk), p.expected) << what;
    EXPECT_EQ(pattern_by_reference(mask, p.Tq, p.Tk), p.expected) << what;
  }
}

TEST(MaskRow, ValidLengthsClampToTkAndZeroMasksTheWholeRow) {
  const std::vector<int32_t> lens = {0, 2, 9};  // (B) with Tk = 4
  MaskSpec mask;
  mask.valid_lens = lens.data();
  EXPECT_EQ(mask_row(mask, 1, 4, 0, 0, 0).limit, 0);
  EXPECT_EQ(mask_row(mask, 1, 4, 1, 0, 0).limit, 2);
  EXPECT_EQ(mask_row(mask, 1, 4, 2, 0, 0).limit, 4);
  const std::vector<int32_t> per_row = {3, 1, 0, 5};  // (B, Tq) with B = 2, Tq = 2
  mask.valid_lens = per_row.data();
  mask.valid_lens_per_row = true;
  mask.causal = Causal::top_left;  // intersects: min(len, i + 1)
  EXPECT_EQ(mask_row(mask, 2, 4, 0, 0, 0).limit, 1);
  EXPECT_EQ(mask_row(mask, 2, 4, 0, 0, 1).limit, 1);
  EXPECT_EQ(mask_row(mask, 2, 4, 1, 0, 0).limit, 0);
  EXPECT_EQ(mask_row(mask, 2, 4, 1, 0, 1).limit, 2);
}

class MaskRowTable : public ::testing::TestWithParam<test::AttentionCase> {};

TEST_P(MaskRowTable, AgreesWithTheReferenceOnEveryKeyAndItsFloatBias) {
  const test::AttentionCase& c = GetParam();
  const MaskSpec mask = c.mask.spec();
  const AttentionDims& d = c.dims;
  for (int b = 0; b < d.B; ++b)
    for (int h = 0; h < d.H; ++h)
      for (int i = 0; i < d.Tq; ++i) {
        const MaskRow row = mask_row(mask, d.Tq, d.Tk, b, h, i);
        for (int j = 0; j < d.Tk; ++j) {
          double core_bias, ref_bias = 0.0;
          const bool core = row_allows(row, j, &core_bias);
          const bool ref = ref::visible(mask, d.Tq, d.Tk, b, h, i, j, &ref_bias);
          ASSERT_EQ(core, ref) << c.name << " b=" << b << " h=" << h << " i=" << i << " j=" << j;
          if (core)
            ASSERT_EQ(core_bias, ref_bias) << c.name << " b=" << b << " h=" << h << " i=" << i << " j=" << j;
        }
      }
}

INSTANTIATE_TEST_SUITE_P(Cases, MaskRowTable, ::testing::ValuesIn(test::attention_cases()), test::case_name);

}  // namespace
}  // namespace attnlab
