// The table of attention problems that the masked-softmax and sdpa suites both run: ranks
// (B, H, Tq, Tk combinations including 1s), odd sizes, every mask option alone and intersecting,
// d2l fill mode, grouped-query heads, softcap, scale and dropout, plus sweeps of d, dv and Tk over
// 1 .. 3W+1 around the vector width W. The masked-softmax suite reads only B, H, Tq, Tk and mask.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"
#include "reference.hpp"
#include "test_util.hpp"

namespace attnlab::test {

struct AttentionCase {
  std::string name;  // a gtest parameter name: letters, digits and underscores
  AttentionDims dims;
  MaskSetup mask;
  float scale = 0.0f;  // 0: the default 1 / sqrt(d)
  float softcap = 0.0f;
  float dropout = 0.0f;
  uint64_t seed = 0;
  float magnitude = 1.5f;  // q and k are uniform in [-magnitude, magnitude]

  SdpaOptions options() const {
    SdpaOptions o;
    o.scale = scale != 0.0f ? scale : 1.0f / std::sqrt(float(dims.d));
    o.softcap = softcap;
    o.dropout = dropout;
    o.seed = seed;
    o.mask = mask.spec();
    return o;
  }
  // A seed for this case's random inputs (FNV-1a of the name, so cases do not share inputs).
  uint32_t input_seed() const {
    uint32_t h = 2166136261u;
    for (char c : name) h = (h ^ uint8_t(c)) * 16777619u;
    return h;
  }
};

inline std::ostream& operator<<(std::ostream& os, const AttentionCase& c) { return os << c.name; }

inline std::string case_name(const ::testing::TestParamInfo<AttentionCase>& info) { return info.param.name; }

// Everything one sdpa call reads, owned: q, k, v, and a fixed random gradient R of the output
// (the finite-difference loss is sum(out * R)).
struct AttentionInputs {
  std::vector<float> q, k, v, dout;
  explicit AttentionInputs(const AttentionCase& c) {
    const uint32_t seed = c.input_seed();
    q = random_uniform(c.dims.q_size(), seed + 1, -c.magnitude, c.magnitude);
    k = random_uniform(c.dims.k_size(), seed + 2, -c.magnitude, c.magnitude);
    v = random_uniform(c.dims.v_size(), seed + 3);
    dout = random_uniform(c.dims.out_size(), seed + 4);
  }
};

inline std::vector<AttentionCase> attention_cases() {
  using C = Causal;
  std::vector<AttentionCase> t;
  auto add = [&t](std::string name, AttentionDims dims, MaskSetup mask = {}) -> AttentionCase& {
    t.push_back({std::move(name), dims, std::move(mask)});
    return t.back();
  };
  //                                          B  H Hkv Tq Tk  d dv
  add("single_query_single_key", {1, 1, 1, 1, 1, 1, 1});
  add("rank2_odd_sizes", {1, 1, 1, 3, 5, 4, 3});
  add("rank3_batch_of_three", {3, 1, 1, 4, 6, 5, 2});
  add("rank4_odd_sizes", {2, 3, 3, 5, 7, 9, 11});
  add("valid_lens_per_batch_beyond_tk", {2, 3, 3, 4, 7, 5, 6}, MaskSetup().lens({3, 9}));
  add("valid_lens_per_batch_with_zero", {2, 2, 2, 3, 5, 4, 3}, MaskSetup().lens({0, 4}));
  add("valid_lens_per_row", {2, 2, 2, 3, 6, 4, 5}, MaskSetup().lens({0, 2, 7, 6, 1, 3}, true));
  add("causal_top_left_square", {1, 2, 2, 6, 6, 4, 4}, MaskSetup().with_causal(C::top_left));
  add("causal_top_left_fewer_queries", {2, 1, 1, 3, 7, 5, 3}, MaskSetup().with_causal(C::top_left));
  add("causal_top_left_more_queries", {2, 1, 1, 7, 3, 5, 3}, MaskSetup().with_causal(C::top_left));
  add("causal_bottom_right_fewer_queries", {2, 1, 1, 3, 7, 5, 3}, MaskSetup().with_causal(C::bottom_right));
  add("causal_bottom_right_more_queries", {2, 1, 1, 7, 3, 5, 3}, MaskSetup().with_causal(C::bottom_right));

  // attnMask broadcast from every shape family, boolean and float.
  const AttentionDims masked_dims{2, 3, 3, 4, 9, 5, 3};
  const std::vector<std::pair<std::string, std::vector<int>>> shapes = {{"tk", {9}},
                                                                        {"tq_tk", {4, 9}},
                                                                        {"b_1_1_tk", {2, 1, 1, 9}},
                                                                        {"1_h_tq_tk", {1, 3, 4, 9}},
                                                                        {"b_h_tq_tk", {2, 3, 4, 9}}};
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    add("bool_mask_" + shapes[s].first, masked_dims, MaskSetup().random_bool(shapes[s].second, 100 + s));
    add("float_mask_" + shapes[s].first, masked_dims, MaskSetup().random_float(shapes[s].second, 200 + s));
  }
  add("bool_mask_masking_whole_rows", {2, 2, 2, 3, 5, 4, 3}, MaskSetup().random_bool({2, 1, 3, 5}, 7, 0.25));

  add("valid_lens_causal_and_bool_mask_intersect", {2, 2, 2, 5, 7, 3, 4},
      MaskSetup()
          .lens({4, 0, 7, 2, 5, 6, 1, 3, 7, 7}, true)
          .with_causal(C::bottom_right)
          .random_bool({1, 2, 5, 7}, 11));
  add("valid_lens_causal_and_float_mask_intersect", {2, 2, 1, 6, 5, 4, 4},
      MaskSetup().lens({3, 5}).with_causal(C::top_left).random_float({2, 1, 6, 5}, 12));

  add("d2l_fill_with_valid_lens_including_zero", {2, 1, 1, 2, 4, 3, 4}, MaskSetup().lens({0, 3}).with_fill());
  add("d2l_fill_with_causal_and_bool_mask", {1, 2, 2, 4, 6, 5, 3},
      MaskSetup().with_causal(C::bottom_right).random_bool({4, 6}, 13).with_fill());
  add("d2l_fill_with_float_mask_and_custom_fill", {1, 1, 1, 3, 5, 4, 2},
      MaskSetup().random_float({3, 5}, 14).with_fill(-3.0f));

  add("grouped_query_4_heads_over_2", {2, 4, 2, 3, 5, 4, 3}, MaskSetup().with_causal(C::top_left));
  add("grouped_query_6_heads_over_3", {1, 6, 3, 4, 6, 3, 5}, MaskSetup().lens({1, 6, 0, 4}, true));
  add("grouped_query_4_heads_over_1", {2, 4, 1, 3, 7, 5, 2}, MaskSetup().random_float({1, 4, 3, 7}, 15));

  add("softcap_saturating_scores", {2, 2, 2, 4, 6, 8, 3}).softcap = 1.5f;
  t.back().magnitude = 2.5f;
  add("softcap_with_mask_and_grouped_heads", {1, 4, 2, 5, 5, 6, 4},
      MaskSetup().with_causal(C::top_left).random_bool({5, 5}, 16))
      .softcap = 2.0f;
  t.back().scale = 0.8f;
  add("scale_one_is_plain_dot", {2, 2, 2, 3, 4, 3, 3}).scale = 1.0f;
  add("scale_custom", {1, 3, 3, 4, 5, 7, 2}, MaskSetup().lens({3})).scale = 0.37f;

  // Sliding windows (left, right; -1 = open) and ALiBi, alone and intersecting the other masks.
  add("window_left_only_square", {1, 2, 2, 7, 7, 4, 3}, MaskSetup().with_window(2, -1));
  add("window_both_sides_fewer_queries", {2, 1, 1, 3, 8, 5, 3}, MaskSetup().with_window(1, 2));
  add("window_both_sides_more_queries", {1, 2, 1, 8, 3, 4, 2}, MaskSetup().with_window(1, 0));
  add("window_right_only_with_causal_top_left", {1, 1, 1, 5, 7, 3, 3},
      MaskSetup().with_window(-1, 1).with_causal(C::top_left));
  add("window_zero_sees_only_the_diagonal", {1, 1, 1, 4, 6, 3, 2}, MaskSetup().with_window(0, 0));
  add("window_with_valid_lens_and_bool_mask", {2, 2, 2, 5, 7, 3, 4},
      MaskSetup().with_window(3, 1).lens({4, 0, 7, 2, 5, 6, 1, 3, 7, 7}, true).random_bool({1, 2, 5, 7}, 21));
  add("window_with_d2l_fill", {1, 2, 2, 4, 6, 5, 3}, MaskSetup().with_window(1, 1).with_fill());
  add("alibi_alone", {2, 2, 2, 4, 6, 5, 3}, MaskSetup().with_alibi({0.5f, 0.25f}));
  add("alibi_fewer_queries_with_causal", {1, 4, 2, 3, 7, 4, 3},
      MaskSetup().with_alibi({0.7f, 0.3f, 1.1f, 0.05f}).with_causal(C::bottom_right));
  add("alibi_with_window_and_float_mask", {1, 2, 1, 6, 5, 4, 4},
      MaskSetup().with_alibi({0.6f, -0.2f}).with_window(2, 1).random_float({6, 5}, 22));
  add("alibi_with_d2l_fill_and_valid_lens", {2, 1, 1, 3, 5, 4, 2},
      MaskSetup().with_alibi({0.4f}).lens({0, 3}).with_fill());
  add("alibi_window_and_softcap", {1, 2, 2, 5, 5, 6, 4},
      MaskSetup().with_alibi({0.3f, 0.9f}).with_window(1, -1))
      .softcap = 2.0f;

  add("dropout_with_valid_lens", {2, 2, 2, 4, 6, 4, 3}, MaskSetup().lens({6, 3})).dropout = 0.3f;
  t.back().seed = 7;
  add("dropout_with_grouped_heads_and_causal", {1, 4, 2, 5, 5, 3, 4}, MaskSetup().with_causal(C::top_left))
      .dropout = 0.5f;
  t.back().seed = 11;
  add("dropout_with_d2l_fill", {2, 1, 1, 3, 4, 3, 2}, MaskSetup().lens({0, 2}).with_fill()).dropout = 0.25f;
  t.back().seed = 12;
  return t;
}

// d, dv and Tk each over 1 .. 3W+1 (W = kernels::width()), the others odd and small, so every
// vector loop of the sdpa row runs with every tail length; Tk sweeps under a bottom-right causal
// mask so the limit of each row walks across the vector boundaries too.
inline std::vector<AttentionCase> width_sweep_cases() {
  std::vector<AttentionCase> t;
  const int top = 3 * kernels::width() + 1;
  for (int n = 1; n <= top; ++n) {
    t.push_back({"d_" + std::to_string(n), {1, 1, 1, 2, 5, n, 3}, MaskSetup()});
    t.push_back({"dv_" + std::to_string(n), {1, 1, 1, 2, 5, 3, n}, MaskSetup()});
    t.push_back(
        {"tk_" + std::to_string(n), {1, 1, 1, 3, n, 3, 2}, MaskSetup().with_causal(Causal::bottom_right)});
  }
  return t;
}

// Whether row (b, h, i) has no visible key, by the reference's element-by-element rule.
inline bool row_sees_nothing(const MaskSpec& mask, int Tq, int Tk, int b, int h, int i) {
  for (int j = 0; j < Tk; ++j)
    if (ref::visible(mask, Tq, Tk, b, h, i, j, nullptr)) return false;
  return true;
}

}  // namespace attnlab::test
