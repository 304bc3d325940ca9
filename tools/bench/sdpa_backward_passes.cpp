// Where the fused backward's time goes (issue 13): the loop of sdpa_backward_fused
// (cpp/src/sdpa_fused.cpp), given the saved forward (out, lse), B=1 H=8 d=dv=64, no mask, rebuilt
// from the public kernels with each pass timed on its own (as tools/bench/sdpa_passes.cpp does for
// the forward; the same clock, ceiling and build), beside attnlab::sdpa_backward itself. As there,
// the blocks are transposed, S^T (Bc, Br): a row per key, a column per query, row stride Br + 16,
// and the softmax runs in base 2 (log2 e folded into the scale of Q):
//   stats      D = rowsum(dO * O) per row; lse2 = lse log2 e
//   transpose  Qt = (scale log2 e Q_blk)^T and dOt = dO_blk^T  (d, Br), once per query block
//   S gemm     S^T = K_blk Qt                 (Bc, Br) over d
//   exp        P^T = 2^(S^T - lse2)           a key's row at a time (f32_exp2_minus), in place
//   dP gemm    dP^T = V_blk dOt               (Bc, Br) over dv
//   dS         dS^T = scale P^T (dP^T - D)    a key's row at a time (f32_softmax_grad_columns), in place
//   dV gemm    dV_blk += P^T dO               (Bc, dv) over Br
//   dK gemm    dK_blk += dS^T Q               (Bc, d) over Br
//   dQ gemm    dQ += (dS^T)^T K_blk           (Br, d) over Bc, the transposed-A product
// The whole loop's dq, dk, dv must equal the library's bit for bit (it prints how many differ):
// the check that this is the library's loop.
// Usage: build/bench_backward_passes [--ceiling=GFLOPS] [--rows=Br] [--keys=Bc] [T ...]
// (without --ceiling it prints GFLOP/s only; other --rows or --keys than the library's 64 and 32
// leave the check meaningless)
// wasm: as sdpa_passes.cpp, with this file:
//   em++ -std=c++17 -O3 -msimd128 -DATTNLAB_SIMD=1 -Icpp/include -I.deps/xsimd/usr/include \
//     -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node tools/bench/sdpa_backward_passes.cpp \
//     build-wasm/libattnlab_simd.a -o /tmp/backward_passes.js
//   node --no-experimental-fetch /tmp/backward_passes.js --ceiling=X
// (relaxed: -mrelaxed-simd and libattnlab_relaxed.a, then the opcode rewrite, as sdpa_passes.cpp says)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "attnlab/kernels.hpp"
#include "attnlab/sdpa.hpp"
#include "bench_common.hpp"

namespace {

namespace kn = attnlab::kernels;

using bench::fill;

constexpr int kHeads = 8, kD = 64;
constexpr int kColumnPad = 16;             // sdpa_fused.cpp's: the (., Br) blocks' row stride is Br + 16
constexpr double kLog2e = 1.44269504088896340736;
int rows = 64, keys = 32;

enum Pass { kStats = 1, kTranspose = 2, kSGemm = 4, kExp = 8, kDpGemm = 16, kDs = 32, kDvGemm = 64, kDkGemm = 128,
            kDqGemm = 256, kAll = 511 };
const char* const kNames[] = {"stats", "transpose", "S gemm", "exp", "dP gemm", "dS", "dV gemm", "dK gemm", "dQ gemm"};
constexpr int kPassCount = 9;
bool is_gemm(int pass) { return pass == 2 || pass == 4 || pass >= 6; }

struct Problem {
  int T;
  std::vector<float> q, k, v, o, lse, dout, dq, dk, dv;
  explicit Problem(int T_) : T(T_) {
    const std::size_t n = std::size_t(kHeads) * T * kD;
    q = fill(n, 1), k = fill(n, 2), v = fill(n, 3), o = fill(n, 4), dout = fill(n, 5);
    lse = std::vector<float>(std::size_t(kHeads) * T, 4.0f);  // exp(S - 4) stays in range
    dq.resize(n), dk.resize(n), dv.resize(n);
  }
};

// The backward of the fused path, query blocks outer, running only the passes in `passes`. P^T
// overwrites S^T and dS^T overwrites dP^T, as in the library, except when dS runs without the dP
// gemm: in place it would feed on its own output, dS = scale P (dS - D) shrinking towards
// subnormals, which are slow, so it then writes a buffer of its own.
void backward_passes(Problem& p, int passes) {
  const int T = p.T, ld = rows + kColumnPad;
  const float scale = 1.0f / std::sqrt(float(kD));     // the library's opt.scale
  const float scale2 = float(scale * kLog2e);           // of Q: scores in log2 units
  std::vector<float> qt(kD * ld), dot(kD * ld), s(keys * ld), dp(keys * ld), ds_alone(keys * ld), lse2(rows),
      D(rows);
  float* ds = (passes & kDpGemm) ? dp.data() : ds_alone.data();
  std::fill(p.dk.begin(), p.dk.end(), 0.0f);
  std::fill(p.dv.begin(), p.dv.end(), 0.0f);
  for (int h = 0; h < kHeads; ++h) {
    const std::size_t head = std::size_t(h) * T * kD;
    const float* kh = p.k.data() + head;
    const float* vh = p.v.data() + head;
    for (int i0 = 0; i0 < T; i0 += rows) {
      const std::size_t first = head + std::size_t(i0) * kD;
      if (passes & kStats) {
        const float* lse = p.lse.data() + std::size_t(h) * T + i0;
        for (int r = 0; r < rows; ++r) {
          D[r] = kn::f32_dot(p.dout.data() + first + r * kD, p.o.data() + first + r * kD, kD);
          lse2[r] = lse[r] == -std::numeric_limits<float>::infinity() ? std::numeric_limits<float>::infinity()
                                                                      : float(lse[r] * kLog2e);
        }
      }
      if (passes & kTranspose) {
        kn::f32_transpose(rows, kD, p.q.data() + first, kD, qt.data(), ld);
        for (int c = 0; c < kD; ++c) kn::f32_scale(qt.data() + c * ld, scale2, rows);
        kn::f32_transpose(rows, kD, p.dout.data() + first, kD, dot.data(), ld);
      }
      std::fill(p.dq.begin() + first, p.dq.begin() + first + rows * kD, 0.0f);
      for (int j0 = 0; j0 < T; j0 += keys) {
        const float* k_blk = kh + std::size_t(j0) * kD;
        const float* v_blk = vh + std::size_t(j0) * kD;
        if (passes & kSGemm) kn::f32_gemm_nn_strided(keys, rows, kD, k_blk, kD, qt.data(), ld, s.data(), ld, false);
        if (passes & kExp)
          for (int j = 0; j < keys; ++j) kn::f32_exp2_minus(s.data() + j * ld, s.data() + j * ld, lse2.data(), rows);
        if (passes & kDpGemm) kn::f32_gemm_nn_strided(keys, rows, kD, v_blk, kD, dot.data(), ld, dp.data(), ld, false);
        if (passes & kDs)
          for (int j = 0; j < keys; ++j)
            kn::f32_softmax_grad_columns(ds + j * ld, s.data() + j * ld, dp.data() + j * ld, D.data(), scale, rows);
        if (passes & kDvGemm)
          kn::f32_gemm_nn_strided(keys, kD, rows, s.data(), ld, p.dout.data() + first, kD,
                                  p.dv.data() + head + std::size_t(j0) * kD, kD, true);
        if (passes & kDkGemm)
          kn::f32_gemm_nn_strided(keys, kD, rows, ds, ld, p.q.data() + first, kD,
                                  p.dk.data() + head + std::size_t(j0) * kD, kD, true);
        if (passes & kDqGemm)
          kn::f32_gemm_tn_strided(rows, kD, keys, ds, ld, k_blk, kD, p.dq.data() + first, kD, true);
      }
    }
  }
}

// The library's own backward (attnlab::sdpa_backward, the fused path) on the same problem.
void library_backward(Problem& p) {
  attnlab::AttentionDims dims;
  dims.H = dims.Hkv = kHeads;
  dims.Tq = dims.Tk = p.T;
  dims.d = dims.dv = kD;
  attnlab::SdpaOptions opt;
  opt.scale = 1.0f / std::sqrt(float(kD));
  static std::vector<float> scratch;
  scratch.resize(attnlab::sdpa_scratch_floats(dims));
  attnlab::sdpa_backward(dims, opt, p.q.data(), p.k.data(), p.v.data(), p.dout.data(), p.dq.data(), p.dk.data(),
                         p.dv.data(), scratch.data(), {p.o.data(), p.lse.data()});
}

// Best CPU seconds of 3 runs of the loop with `passes` (0: the library's backward).
double time_passes(Problem& p, int passes) {
  return bench::best_cpu_seconds(3, [&] { passes == 0 ? library_backward(p) : backward_passes(p, passes); });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  double ceiling = 0;
  for (int a = 1; a < argc; ++a) {
    const char* arg = argv[a];
    auto value_of = [&](const char* name) {
      return std::strncmp(arg, name, std::strlen(name)) == 0 ? arg + std::strlen(name) : nullptr;
    };
    if (const char* x = value_of("--ceiling=")) ceiling = std::atof(x);
    else if (const char* x = value_of("--rows=")) rows = std::atoi(x);
    else if (const char* x = value_of("--keys=")) keys = std::atoi(x);
    else sizes.push_back(std::atoi(arg));
  }
  if (sizes.empty()) sizes = {512, 1024, 2048};
  std::printf("sdpa backward passes, kernels '%s', Br=%d Bc=%d H=%d d=%d; ceiling %.1f GFLOP/s\n", kn::arch_name(),
              rows, keys, kHeads, kD, ceiling);
  for (int T : sizes) {
    Problem p(T);
    backward_passes(p, kAll);  // warm-up, and the check against the library
    const std::vector<float> dq = p.dq, dk = p.dk, dv = p.dv;
    library_backward(p);
    std::size_t differ = 0;  // values not equal to the library's (a NaN counts)
    for (std::size_t i = 0; i < dq.size(); ++i)
      differ += !(dq[i] == p.dq[i]) + !(dk[i] == p.dk[i]) + !(dv[i] == p.dv[i]);
    const double total = time_passes(p, kAll);
    const double flops = 10.0 * kHeads * T * double(T) * kD;
    std::printf("T=%-5d whole %7.2f ms (%5.1f GFLOP/s", T, total * 1e3, flops / total / 1e9);
    if (ceiling > 0) std::printf(", %3.0f%%", 100 * flops / total / 1e9 / ceiling);
    const double library = time_passes(p, 0);
    std::printf("); attnlab::sdpa_backward %7.2f ms (%5.1f GFLOP/s), %zu of %zu gradients differ\n  alone:",
                library * 1e3, flops / library / 1e9, differ, 3 * dq.size());
    double sum = 0;
    for (int i = 0; i < kPassCount; ++i) {
      const double t = time_passes(p, 1 << i);
      sum += t;
      std::printf(" %s %.1f%%", kNames[i], 100 * t / total);
      if (is_gemm(i)) std::printf(" (%.1f GF)", 2.0 * kHeads * T * double(T) * kD / t / 1e9);
      std::printf(i + 1 < kPassCount ? " |" : "");
    }
    std::printf(" | sum %.1f%%\n", 100 * sum / total);
  }
}
