// The private Embind layer: thin entry points over the core for web/src (the public JS API).
// Every entry point takes the address of one packed record (packed.hpp): an *Args struct (sizes
// and options) and, for entries that touch tensors, a Buffers struct (byte addresses of tensors the
// JS arena placed in wasm memory). It re-validates sizes and buffer extents cheaply and calls the
// core. Bad input raises a JS RangeError, never a trap. Users never see this module: no classes,
// nothing to .delete(), and no Embind object conversion (one ABI: the packed records).
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include "args.hpp"
#include "attnlab/kernels.hpp"
#include "packed.hpp"
#include "attnlab/layer.hpp"
#include "attnlab/rope.hpp"
#include "attnlab/scoring.hpp"
#include "attnlab/sdpa.hpp"
#include "attnlab/softmax.hpp"

namespace attnlab::binding {
namespace {

// A scratch size in floats, or HUGE_VAL when it cannot fit one wasm allocation. The terms (the
// tensors' sizes the scratch is made of) are checked first: each at most 2^29, so the core's 64-bit
// sum of a few products of them cannot overflow; then the total, which alone can pass 2^32.
template <class Total>
double scratch_or_huge(std::initializer_list<double> terms, Total total) {
  for (double c : terms)
    if (!(c <= kMaxFloatsPerBuffer)) return HUGE_VAL;
  const double floats = double(total());
  return floats <= kMaxFloatsPerBuffer ? floats : HUGE_VAL;
}

// The scratch at `address` holds `floats` (HUGE_VAL: the sizes need more than wasm memory holds).
void check_scratch(Boundary& check, uintptr_t address, double floats) {
  if (!check.ok()) return;
  check.require(floats < HUGE_VAL, "the scratch these sizes need does not fit one wasm allocation");
  check.span("scratch", address, floats, 4);
}

// The optional (B, H, Tq, Tk) outputs a forward pass may write: weights, scores, masked, and
// softcapped when the op has it (sdpa); an op without it must not be handed one.
void check_score_outputs(Boundary& check, const Buffers& b, double scores, bool has_softcapped) {
  for (auto [name, address] : {std::pair{"weights", b.weights}, {"scores", b.scores}, {"masked", b.masked}})
    check.span(name, address, scores, 4, true);
  if (has_softcapped)
    check.span("softcapped", b.softcapped, scores, 4, true);
  else
    check.require(b.softcapped == 0, "softcapped is not an output of this op");
}

// A *ScratchFloats entry: the sizes checked as the op's other entries check them, then the floats
// of scratch they need (HUGE_VAL: more than one wasm allocation).
template <class Args, class Dims>
double scratch_entry(const char* entry, const Args& a, double (*scratch)(const Args&, const Dims&)) {
  Boundary check(entry);
  const Dims dims = to_dims(check, a);
  if (!check.ok()) return check.raise(), 0;
  return scratch(a, dims);
}

// What every entry of an op family reads first: its sizes, then (when they pass) its options with
// the mask. Not inlined: it has six callers, and a copy in each costs more code than the call.
template <class Dims, class Options>
struct SizesAndOptions {
  Dims dims;
  Options opt;
};

template <class Args, class Options>
__attribute__((noinline)) auto sizes_and_options(Boundary& check, const Args& a, const Buffers& b,
                                                 Options (*options_of)(Boundary&, const Args&,
                                                                       const Buffers&)) {
  SizesAndOptions<decltype(to_dims(check, a)), Options> c;
  c.dims = to_dims(check, a);
  if (check.ok()) c.opt = options_of(check, a, b);
  return c;
}

// ---- masked softmax: x, y, dy, dx (B, H, Tq, Tk) ----

// Both directions: the sizes, the tensors (each (B, H, Tq, Tk)), then the mask.
MaskSpec check_softmax_call(Boundary& check, const SoftmaxArgs& a, const Buffers& b,
                            std::initializer_list<std::pair<const char*, uintptr_t>> tensors) {
  check.positive({{"B", a.B}, {"H", a.H}, {"Tq", a.Tq}, {"Tk", a.Tk}});
  const double n = count(a.B, a.H, a.Tq, a.Tk);
  for (auto [name, address] : tensors) check.span(name, address, n, 4);
  return check.ok() ? to_mask(check, a.mask, b, a.B, a.H, a.Tq, a.Tk) : MaskSpec{};
}

void masked_softmax_forward_entry(const SoftmaxArgs& a, const Buffers& b) {
  Boundary check("maskedSoftmaxForward");
  const MaskSpec mask = check_softmax_call(check, a, b, {{"x", b.x}, {"y", b.y}});
  if (!check.ok()) return check.raise();
  masked_softmax_forward(a.B, a.H, a.Tq, a.Tk, mask, f32(b.x), f32_out(b.y));
}

void masked_softmax_backward_entry(const SoftmaxArgs& a, const Buffers& b) {
  Boundary check("maskedSoftmaxBackward");
  const MaskSpec mask = check_softmax_call(check, a, b, {{"y", b.y}, {"dy", b.dy}, {"dx", b.dx}});
  if (!check.ok()) return check.raise();
  masked_softmax_backward(a.B, a.H, a.Tq, a.Tk, mask, f32(b.y), f32(b.dy), f32_out(b.dx));
}

// ---- rotary position embeddings: x, y, dy, dx (N, T, d) ----

// Both directions: `from` (x or dy) rotated into `to` (y or dx), by +angle forward, -angle backward.
void rope_entry(const char* entry, const RopeArgs& a, const char* from_name, uintptr_t from,
                const char* to_name, uintptr_t to, bool backward) {
  Boundary check(entry);
  const RopeOptions opt = to_rope_options(check, a);
  const double n = count(a.N, a.T, a.d);
  check.span(from_name, from, n, 4);
  check.span(to_name, to, n, 4);
  if (!check.ok()) return check.raise();
  (backward ? rope_backward : rope_forward)(a.N, a.T, a.d, opt, f32(from), f32_out(to));
}

void rope_forward_entry(const RopeArgs& a, const Buffers& b) {
  rope_entry("ropeForward", a, "x", b.x, "y", b.y, false);
}
void rope_backward_entry(const RopeArgs& a, const Buffers& b) {
  rope_entry("ropeBackward", a, "dy", b.dy, "dx", b.dx, true);
}

// ---- scaled dot-product attention ----

double sdpa_scratch(const AttentionDims& dims) {
  const double widest = std::max(dims.d, dims.dv);
  return scratch_or_huge({count(dims.B, dims.H, dims.Tq, widest), count(dims.B, dims.Hkv, dims.Tk, widest)},
                         [&] { return sdpa_scratch_floats(dims); });
}

double sdpa_scratch_entry(const SdpaArgs& a) {
  auto scratch = [](const SdpaArgs&, const AttentionDims& dims) { return sdpa_scratch(dims); };
  return scratch_entry<SdpaArgs, AttentionDims>("sdpaScratchFloats", a, scratch);
}

// Shared by forward and backward: q, k, v and scratch are read by both.
void check_sdpa_inputs(Boundary& check, const AttentionDims& dims, const Buffers& b) {
  if (!check.ok()) return;
  check.span("q", b.q, count(dims.B, dims.H, dims.Tq, dims.d), 4);
  check.span("k", b.k, count(dims.B, dims.Hkv, dims.Tk, dims.d), 4);
  check.span("v", b.v, count(dims.B, dims.Hkv, dims.Tk, dims.dv), 4);
  check_scratch(check, b.scratch, sdpa_scratch(dims));
}

void sdpa_forward_entry(const SdpaArgs& a, const Buffers& b) {
  Boundary check("sdpaForward");
  const auto [dims, opt] = sizes_and_options(check, a, b, to_sdpa_options);
  check_sdpa_inputs(check, dims, b);
  check.span("out", b.out, count(a.B, a.H, a.Tq, a.dv), 4);
  check.span("lse", b.lse, count(a.B, a.H, a.Tq), 4, true);
  check_score_outputs(check, b, count(a.B, a.H, a.Tq, a.Tk), true);
  if (!check.ok()) return check.raise();
  const SdpaForwardOutputs outputs{f32_out(b.out),    f32_out(b.lse),        f32_out(b.weights),
                                   f32_out(b.scores), f32_out(b.softcapped), f32_out(b.masked)};
  sdpa_forward(dims, opt, f32(b.q), f32(b.k), f32(b.v), outputs, f32_out(b.scratch));
}

void sdpa_backward_entry(const SdpaArgs& a, const Buffers& b) {
  Boundary check("sdpaBackward");
  const auto [dims, opt] = sizes_and_options(check, a, b, to_sdpa_options);
  check_sdpa_inputs(check, dims, b);
  check.span("dout", b.dout, count(a.B, a.H, a.Tq, a.dv), 4);
  check.span("dq", b.dq, count(a.B, a.H, a.Tq, a.d), 4);
  check.span("dk", b.dk, count(a.B, a.Hkv, a.Tk, a.d), 4);
  check.span("dv", b.dv, count(a.B, a.Hkv, a.Tk, a.dv), 4);
  // Optional: the forward's out and lse on the same inputs, so the core need not recompute them.
  check.span("out", b.out, count(a.B, a.H, a.Tq, a.dv), 4, true);
  check.span("lse", b.lse, count(a.B, a.H, a.Tq), 4, true);
  check.require((b.out == 0) == (b.lse == 0), "the saved forward needs both out and lse");
  if (!check.ok()) return check.raise();
  sdpa_backward(dims, opt, f32(b.q), f32(b.k), f32(b.v), f32(b.dout), f32_out(b.dq), f32_out(b.dk),
                f32_out(b.dv), f32_out(b.scratch), {f32(b.out), f32(b.lse)});
}

// ---- attention with a scoring function ----

// Only for sizes to_dims accepted.
double scoring_scratch(const ScoringArgs& a, const ScoringDims& dims) {
  const double widest = std::max({a.dq, a.dk, a.dv, a.hidden});
  // additive and concat materialise the (B, H, Tq, Tk) scores in scratch; general streams like sdpa.
  const bool materialises = a.scoring == int(Scoring::additive) || a.scoring == int(Scoring::concat);
  const double scores = materialises ? count(a.B, a.H, a.Tq, a.Tk) : 0;
  return scratch_or_huge({scores, count(a.B, a.H, a.Tq, widest), count(a.B, a.Hkv, a.Tk, widest),
                          count(a.dq, a.dk), count(double(a.dq) + a.dk, a.hidden)},
                         [&] { return scoring_scratch_floats(dims, Scoring(a.scoring)); });
}

double scoring_scratch_entry(const ScoringArgs& a) {
  return scratch_entry("scoringScratchFloats", a, scoring_scratch);
}

// The parameters `scoring` reads (and whose gradients the backward writes), with their sizes.
void check_scoring_params(Boundary& check, const ScoringArgs& a, uintptr_t w, uintptr_t wq, uintptr_t wk,
                          uintptr_t wv, const char* const names[4]) {
  const Scoring s = Scoring(a.scoring);
  check.require(s == Scoring::general || s == Scoring::concat || w == 0,
                "w is only read by general and concat");
  check.require(s == Scoring::additive || (wq == 0 && wk == 0 && wv == 0),
                "wq, wk, wv are only read by additive");
  if (s == Scoring::general) check.span(names[0], w, count(a.dq, a.dk), 4);
  if (s == Scoring::concat) check.span(names[0], w, double(a.dq) + a.dk, 4);
  if (s == Scoring::additive) {
    check.span(names[1], wq, count(a.dq, a.hidden), 4);
    check.span(names[2], wk, count(a.dk, a.hidden), 4);
    check.span(names[3], wv, double(a.hidden), 4);
  }
}

// Shared by forward and backward: the parameters, q, k, v and scratch are read by both.
void check_scoring_inputs(Boundary& check, const ScoringArgs& a, const ScoringDims& dims, const Buffers& b) {
  if (!check.ok()) return;
  static const char* const params[4] = {"w", "wq", "wk", "wv"};
  check_scoring_params(check, a, b.w, b.wq, b.wk, b.wv, params);
  check.span("q", b.q, count(a.B, a.H, a.Tq, a.dq), 4);
  check.span("k", b.k, count(a.B, a.Hkv, a.Tk, a.dk), 4);
  check.span("v", b.v, count(a.B, a.Hkv, a.Tk, a.dv), 4);
  if (check.ok()) check_scratch(check, b.scratch, scoring_scratch(a, dims));
}

ScoringParams scoring_params(const Buffers& b) { return {f32(b.w), f32(b.wq), f32(b.wk), f32(b.wv)}; }

void scoring_forward_entry(const ScoringArgs& a, const Buffers& b) {
  Boundary check("scoringForward");
  const auto [dims, opt] = sizes_and_options(check, a, b, to_scoring_options);
  check_scoring_inputs(check, a, dims, b);
  check.span("out", b.out, count(a.B, a.H, a.Tq, a.dv), 4);
  check_score_outputs(check, b, count(a.B, a.H, a.Tq, a.Tk), false);
  if (!check.ok()) return check.raise();
  const ScoringForwardOutputs outputs{f32_out(b.out), f32_out(b.weights), f32_out(b.scores),
                                      f32_out(b.masked)};
  scoring_forward(dims, opt, scoring_params(b), f32(b.q), f32(b.k), f32(b.v), outputs, f32_out(b.scratch));
}

void scoring_backward_entry(const ScoringArgs& a, const Buffers& b) {
  Boundary check("scoringBackward");
  const auto [dims, opt] = sizes_and_options(check, a, b, to_scoring_options);
  check_scoring_inputs(check, a, dims, b);
  static const char* const grads[4] = {"dw", "dwq", "dwk", "dwv"};
  if (check.ok()) check_scoring_params(check, a, b.dw, b.dwq, b.dwk, b.dwv, grads);
  check.span("dout", b.dout, count(a.B, a.H, a.Tq, a.dv), 4);
  check.span("dq", b.dq, count(a.B, a.H, a.Tq, a.dq), 4);
  check.span("dk", b.dk, count(a.B, a.Hkv, a.Tk, a.dk), 4);
  check.span("dv", b.dv, count(a.B, a.Hkv, a.Tk, a.dv), 4);
  if (!check.ok()) return check.raise();
  const ScoringGrads g{f32_out(b.dw), f32_out(b.dwq), f32_out(b.dwk), f32_out(b.dwv)};
  scoring_backward(dims, opt, scoring_params(b), f32(b.q), f32(b.k), f32(b.v), f32(b.dout), f32_out(b.dq),
                   f32_out(b.dk), f32_out(b.dv), g, f32_out(b.scratch));
}

// ---- layers: x (B, T, dIn) ----

// Only for sizes to_dims accepted.
double layer_scratch(const LayerArgs& a, const LayerDims& dims) {
  const double widest = std::max({double(a.dIn), a.heads * double(std::max(a.dQ, a.dV)), double(a.dOut)});
  return scratch_or_huge({count(a.B, a.T, widest), count(a.dIn, widest), count(a.heads, a.dV, a.dOut),
                          count(a.B, a.heads, a.T, std::max(a.dQ, a.dV))},
                         [&] { return layer_scratch_floats(dims); });
}

double layer_scratch_entry(const LayerArgs& a) {
  return scratch_entry("layerScratchFloats", a, layer_scratch);
}

// The layer's four weights, or (in the backward) their gradients, with their sizes:
// wq (dIn, heads dQ), wk (dIn, kvHeads dQ), wv (dIn, kvHeads dV), wo (heads dV, dOut) when dOut > 0.
void check_layer_params(Boundary& check, const LayerArgs& a, uintptr_t wq, uintptr_t wk, uintptr_t wv,
                        uintptr_t wo, const char* const names[4]) {
  check.span(names[0], wq, count(a.dIn, a.heads, a.dQ), 4);
  check.span(names[1], wk, count(a.dIn, a.kvHeads, a.dQ), 4);
  check.span(names[2], wv, count(a.dIn, a.kvHeads, a.dV), 4);
  check.span(names[3], wo, count(a.heads, a.dV, a.dOut), 4, a.dOut == 0);
}

// The weights and x, read by every layer entry.
void check_layer_weights_and_x(Boundary& check, const LayerArgs& a, const Buffers& b) {
  static const char* const weights[4] = {"wq", "wk", "wv", "wo"};
  check_layer_params(check, a, b.wq, b.wk, b.wv, b.wo, weights);
  check.span("x", b.x, count(a.B, a.T, a.dIn), 4);
}

// Shared by forward and backward: the rotary options (returned), the weights, x, the saved forward
// state (written by forward, read by backward) and the scratch.
RopeOptions check_layer_inputs(Boundary& check, const LayerArgs& a, const LayerDims& dims, const Buffers& b) {
  const RopeOptions rope = to_layer_rope(check, a);
  if (!check.ok()) return rope;
  check_layer_weights_and_x(check, a, b);
  check.span("q", b.q, count(a.B, a.heads, a.T, a.dQ), 4);
  check.span("k", b.k, count(a.B, a.kvHeads, a.T, a.dQ), 4);
  check.span("v", b.v, count(a.B, a.kvHeads, a.T, a.dV), 4);
  check.span("heads", b.heads, count(a.B, a.T, a.heads, a.dV), 4, a.dOut == 0);
  if (check.ok()) check_scratch(check, b.scratch, layer_scratch(a, dims));
  return rope;
}

// dims.out_width() in double: heads * dV may pass INT_MAX for sizes still to be rejected.
double out_width(const LayerArgs& a) { return a.dOut > 0 ? double(a.dOut) : double(a.heads) * a.dV; }

LayerWeights layer_weights(const Buffers& b) { return {f32(b.wq), f32(b.wk), f32(b.wv), f32(b.wo)}; }
LayerSaved layer_saved(const Buffers& b) {
  return {f32_out(b.q), f32_out(b.k), f32_out(b.v), f32_out(b.heads)};
}

void layer_forward_entry(const LayerArgs& a, const Buffers& b) {
  Boundary check("layerForward");
  const auto [dims, opt] = sizes_and_options(check, a, b, to_layer_options);
  const RopeOptions rope = check_layer_inputs(check, a, dims, b);
  check.span("out", b.out, count(a.B, a.T, out_width(a)), 4);
  check_score_outputs(check, b, count(a.B, a.heads, a.T, a.T), false);
  if (!check.ok()) return check.raise();
  const SdpaForwardOutputs trace{nullptr,           nullptr, f32_out(b.weights),
                                 f32_out(b.scores), nullptr, f32_out(b.masked)};
  const bool traced = b.weights || b.scores || b.masked;
  layer_forward(dims, layer_weights(b), opt, f32(b.x), f32_out(b.out), layer_saved(b),
                traced ? &trace : nullptr, f32_out(b.scratch), a.rope ? &rope : nullptr);
}

// The rows a cached forward attends to (held + new), or 0 when the cache fields are not integers
// with length + T <= capacity <= 2^29.
int cached_keys(const LayerArgs& a) {
  const bool integers =
      std::floor(a.cacheLength) == a.cacheLength && std::floor(a.cacheCapacity) == a.cacheCapacity;
  const bool fits =
      a.cacheLength >= 0 && a.cacheLength + a.T <= a.cacheCapacity && a.cacheCapacity <= kMaxFloatsPerBuffer;
  return integers && fits ? int(a.cacheLength) + a.T : 0;
}

double layer_cached_scratch_entry(const LayerArgs& a) {
  Boundary check("layerCachedScratchFloats");
  const LayerDims dims = to_dims(check, a);
  const int keys = cached_keys(a);
  check.require(keys > 0,
                "cacheLength and cacheCapacity must be integers with cacheLength + T <= cacheCapacity");
  if (!check.ok()) return check.raise(), 0;
  const double widest = std::max({double(a.dIn), a.heads * double(std::max(a.dQ, a.dV)), double(a.dOut)});
  return scratch_or_huge(
      {count(a.B, a.T, widest), count(a.B, a.heads, a.T, std::max(a.dQ, a.dV)), double(keys)},
      [&] { return layer_cached_scratch_floats(dims, keys); });
}

// x (B, T, dIn) after the cache's rows: buffers x, wq, wk, wv, wo, out, q (the new rows' queries,
// (B, heads, T, dQ)), k and v (the cache, (B, kvHeads, cacheCapacity, dQ | dV)), alibiSlopes, scratch.
void layer_forward_cached_entry(const LayerArgs& a, const Buffers& b) {
  Boundary check("layerForwardCached");
  const LayerDims dims = to_dims(check, a);
  const int keys = check.ok() ? cached_keys(a) : 0;
  check.require(keys > 0,
                "cacheLength and cacheCapacity must be integers with cacheLength + T <= cacheCapacity");
  const SdpaOptions opt = check.ok() ? to_layer_options(check, a, b, keys) : SdpaOptions{};
  check.require(b.validLens == 0 && b.boolMask == 0 && b.floatMask == 0,
                "a cached forward takes causal, window and ALiBi masks only");
  const RopeOptions rope = to_layer_rope(check, a);
  check.require(!a.rope || a.ropeOffset == a.cacheLength, "ropeOffset must equal cacheLength");
  if (check.ok()) {
    check_layer_weights_and_x(check, a, b);
    check.span("out", b.out, count(a.B, a.T, out_width(a)), 4);
    check.span("q", b.q, count(a.B, a.heads, a.T, a.dQ), 4);
    check.span("k", b.k, count(a.B, a.kvHeads, a.cacheCapacity, a.dQ), 4);
    check.span("v", b.v, count(a.B, a.kvHeads, a.cacheCapacity, a.dV), 4);
  }
  if (check.ok()) check_scratch(check, b.scratch, layer_cached_scratch_entry(a));
  if (!check.ok()) return check.raise();
  const LayerCache cache{f32_out(b.k), f32_out(b.v), int(a.cacheCapacity), int(a.cacheLength)};
  layer_forward_cached(dims, layer_weights(b), opt, f32(b.x), f32_out(b.out), cache, f32_out(b.q),
                       f32_out(b.scratch), a.rope ? &rope : nullptr);
}

void layer_backward_entry(const LayerArgs& a, const Buffers& b) {
  Boundary check("layerBackward");
  const auto [dims, opt] = sizes_and_options(check, a, b, to_layer_options);
  const RopeOptions rope = check_layer_inputs(check, a, dims, b);
  check.span("dout", b.dout, count(a.B, a.T, out_width(a)), 4);
  check.span("dx", b.dx, count(a.B, a.T, a.dIn), 4);
  static const char* const gradients[4] = {"dwq", "dwk", "dwv", "dwo"};
  check_layer_params(check, a, b.dwq, b.dwk, b.dwv, b.dwo, gradients);
  if (!check.ok()) return check.raise();
  const LayerGrads grads{f32_out(b.dwq), f32_out(b.dwk), f32_out(b.dwv), f32_out(b.dwo)};
  layer_backward(dims, layer_weights(b), opt, f32(b.x), layer_saved(b), f32(b.dout), f32_out(b.dx), grads,
                 f32_out(b.scratch), a.rope ? &rope : nullptr);
}

// w (fanIn, fanOut): Xavier-uniform from (seed, stream), identical in every build.
void init_weights_entry(const InitArgs& a, const Buffers& b) {
  Boundary check("initWeights");
  check.positive("fanIn", a.fanIn);
  check.positive("fanOut", a.fanOut);
  check.require(a.seed >= 0 && a.seed < 9007199254740992.0 && std::floor(a.seed) == a.seed,
                "seed must be an integer in [0, 2^53)");
  check.require(a.stream >= 0, "stream must be >= 0");
  check.span("w", b.w, count(a.fanIn, a.fanOut), 4);
  if (!check.ok()) return check.raise();
  init_weights(f32_out(b.w), a.fanIn, a.fanOut, uint64_t(a.seed), uint32_t(a.stream));
}

// w (n) -= learningRate * dw (n)
void sgd_step_entry(const StepArgs& a, const Buffers& b) {
  Boundary check("sgdStep");
  check.require(a.n >= 0 && a.n <= kMaxFloatsPerBuffer && std::floor(a.n) == a.n,
                "n must be an integer in [0, 2^29]");
  check.require(finite_in_float32(a.learningRate), "learningRate must be finite in float32");
  check.span("w", b.w, a.n, 4);
  check.span("dw", b.dw, a.n, 4);
  if (!check.ok()) return check.raise();
  sgd_step(f32_out(b.w), f32(b.dw), std::size_t(a.n), float(a.learningRate));
}

// The index of the first NaN or infinity of the `count` floats at byte address `address`, or -1:
// memory.js scans an input it copied into an arena with this (several times faster than a JS loop).
double first_nonfinite_entry(double address, double count) {
  Boundary check("firstNonFinite");
  check.require(count >= 0 && count <= kMaxFloatsPerBuffer && std::floor(count) == count,
                "count must be an integer in [0, 2^29]");
  const uintptr_t at = address >= 0 && address < 4294967296.0 ? uintptr_t(address) : 0;
  if (check.ok()) check.span("x", at, count, 4);
  if (!check.ok()) return check.raise(), 0;
  return kernels::f32_first_nonfinite(f32(at), int(count));
}

std::string arch_name_entry() { return kernels::arch_name(); }

std::string tile_name_entry() { return kernels::tile_name(); }

// An entry point over a packed record at `record` (packed.hpp): its Args then the Buffers, read
// after the record itself is checked to lie in wasm memory, then the entry with all its checks.
template <class Args, void (*Entry)(const Args&, const Buffers&)>
void packed_entry(uintptr_t record) {
  Boundary check("packed call");
  check.span("record", record, double(kPackedDoubles<Args> + kPackedDoubles<Buffers>), 8);
  if (!check.ok()) return check.raise();
  PackedReader reader(record);
  Args a;
  Buffers b;
  read_packed(reader, a);
  read_packed(reader, b);
  Entry(a, b);
}

// A size query over a packed record that holds only its Args.
template <class Args, double (*Query)(const Args&)>
double packed_query(uintptr_t record) {
  Boundary check("packed query");
  check.span("record", record, double(kPackedDoubles<Args>), 8);
  if (!check.ok()) return check.raise(), 0;
  PackedReader reader(record);
  Args a;
  read_packed(reader, a);
  return Query(a);
}

}  // namespace
}  // namespace attnlab::binding

EMSCRIPTEN_BINDINGS(attnlab) {
  using namespace emscripten;
  using namespace attnlab::binding;

  function("archName", &arch_name_entry);
  function("tileName", &tile_name_entry);
  function("vectorWidth", &attnlab::kernels::width);
  function("packedLayout", &packed_layout);
  function("firstNonFinite", &first_nonfinite_entry);
  // Each takes the address of a packed record (packed.hpp); web/src/boundary/packed.js writes it.
  function("maskedSoftmaxForward", &packed_entry<SoftmaxArgs, &masked_softmax_forward_entry>);
  function("maskedSoftmaxBackward", &packed_entry<SoftmaxArgs, &masked_softmax_backward_entry>);
  function("sdpaScratchFloats", &packed_query<SdpaArgs, &sdpa_scratch_entry>);
  function("sdpaForward", &packed_entry<SdpaArgs, &sdpa_forward_entry>);
  function("sdpaBackward", &packed_entry<SdpaArgs, &sdpa_backward_entry>);
  function("scoringScratchFloats", &packed_query<ScoringArgs, &scoring_scratch_entry>);
  function("scoringForward", &packed_entry<ScoringArgs, &scoring_forward_entry>);
  function("scoringBackward", &packed_entry<ScoringArgs, &scoring_backward_entry>);
  function("ropeForward", &packed_entry<RopeArgs, &rope_forward_entry>);
  function("ropeBackward", &packed_entry<RopeArgs, &rope_backward_entry>);
  function("layerScratchFloats", &packed_query<LayerArgs, &layer_scratch_entry>);
  function("layerForward", &packed_entry<LayerArgs, &layer_forward_entry>);
  function("layerBackward", &packed_entry<LayerArgs, &layer_backward_entry>);
  function("layerCachedScratchFloats", &packed_query<LayerArgs, &layer_cached_scratch_entry>);
  function("layerForwardCached", &packed_entry<LayerArgs, &layer_forward_cached_entry>);
  function("initWeights", &packed_entry<InitArgs, &init_weights_entry>);
  function("sgdStep", &packed_entry<StepArgs, &sgd_step_entry>);
}
