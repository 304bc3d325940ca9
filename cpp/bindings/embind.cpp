// The private Embind layer: thin entry points over the core for web/src (the public JS API).
// Every entry point takes an *Args value_object (sizes and options) and a Buffers value_object
// (byte addresses of tensors the JS arena placed in wasm memory), re-validates sizes and buffer
// extents cheaply, and calls the core. Bad input raises a JS RangeError, never a trap.
// Users never see this module: no classes, nothing to .delete().
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

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

// A scratch size for dims whose tensors could not fit one wasm allocation anyway: the core's
// size_t arithmetic is 32-bit in wasm32 and might wrap, so answer "too big" before asking it.
bool fits(std::initializer_list<double> counts) {
  for (double c : counts)
    if (!(c <= kMaxFloatsPerBuffer)) return false;
  return true;
}

// The optional (B, H, Tq, Tk) outputs a forward pass may write: weights, scores, masked, and
// softcapped when the op has it (sdpa); an op without it must not be handed one.
void check_score_outputs(Boundary& check, const Buffers& b, double scores, bool has_softcapped) {
  for (auto [name, address] : {std::pair{"weights", b.weights}, {"scores", b.scores}, {"masked", b.masked}})
    check.span(name, address, scores, 4, true);
  if (has_softcapped) check.span("softcapped", b.softcapped, scores, 4, true);
  else check.require(b.softcapped == 0, "softcapped is not an output of this op");
}

// ---- masked softmax: x, y, dy, dx (B, H, Tq, Tk) ----

void masked_softmax_forward_entry(const SoftmaxArgs& a, const Buffers& b) {
  Boundary check("maskedSoftmaxForward");
  check.positive({{"B", a.B}, {"H", a.H}, {"Tq", a.Tq}, {"Tk", a.Tk}});
  const double n = count(a.B, a.H, a.Tq, a.Tk);
  check.span("x", b.x, n, 4);
  check.span("y", b.y, n, 4);
  MaskSpec mask = check.ok() ? to_mask(check, a.mask, b, a.B, a.H, a.Tq, a.Tk) : MaskSpec{};
  if (!check.ok()) return check.raise();
  masked_softmax_forward(a.B, a.H, a.Tq, a.Tk, mask, f32(b.x), f32_out(b.y));
}

void masked_softmax_backward_entry(const SoftmaxArgs& a, const Buffers& b) {
  Boundary check("maskedSoftmaxBackward");
  check.positive({{"B", a.B}, {"H", a.H}, {"Tq", a.Tq}, {"Tk", a.Tk}});
  const double n = count(a.B, a.H, a.Tq, a.Tk);
  check.span("y", b.y, n, 4);
  check.span("dy", b.dy, n, 4);
  check.span("dx", b.dx, n, 4);
  MaskSpec mask = check.ok() ? to_mask(check, a.mask, b, a.B, a.H, a.Tq, a.Tk) : MaskSpec{};
  if (!check.ok()) return check.raise();
  masked_softmax_backward(a.B, a.H, a.Tq, a.Tk, mask, f32(b.y), f32(b.dy), f32_out(b.dx));
}

// ---- rotary position embeddings: x, y, dy, dx (N, T, d) ----

// Both directions: `from` (x or dy) rotated into `to` (y or dx), by +angle forward, -angle backward.
void rope_entry(const char* entry, const RopeArgs& a, const char* from_name, uintptr_t from, const char* to_name,
                uintptr_t to, bool backward) {
  Boundary check(entry);
  const RopeOptions opt = to_rope_options(check, a);
  const double n = count(a.N, a.T, a.d);
  check.span(from_name, from, n, 4);
  check.span(to_name, to, n, 4);
  if (!check.ok()) return check.raise();
  (backward ? rope_backward : rope_forward)(a.N, a.T, a.d, opt, f32(from), f32_out(to));
}

void rope_forward_entry(const RopeArgs& a, const Buffers& b) { rope_entry("ropeForward", a, "x", b.x, "y", b.y, false); }
void rope_backward_entry(const RopeArgs& a, const Buffers& b) {
  rope_entry("ropeBackward", a, "dy", b.dy, "dx", b.dx, true);
}

// ---- scaled dot-product attention ----

double sdpa_scratch_entry(const SdpaArgs& a) {
  Boundary check("sdpaScratchFloats");
  const AttentionDims dims = to_dims(check, a);
  if (!check.ok()) return check.raise(), 0;
  if (!fits({count(a.B, a.H, a.Tq, std::max(a.d, a.dv)), count(a.B, a.Hkv, a.Tk, std::max(a.d, a.dv))})) return HUGE_VAL;
  return double(sdpa_scratch_floats(dims));
}

// Shared by forward and backward: q, k, v and scratch are read by both.
void check_sdpa_inputs(Boundary& check, const AttentionDims& dims, const Buffers& b) {
  if (!check.ok()) return;
  check.span("q", b.q, count(dims.B, dims.H, dims.Tq, dims.d), 4);
  check.span("k", b.k, count(dims.B, dims.Hkv, dims.Tk, dims.d), 4);
  check.span("v", b.v, count(dims.B, dims.Hkv, dims.Tk, dims.dv), 4);
  if (check.ok()) check.span("scratch", b.scratch, double(sdpa_scratch_floats(dims)), 4);
}

void sdpa_forward_entry(const SdpaArgs& a, const Buffers& b) {
  Boundary check("sdpaForward");
  const AttentionDims dims = to_dims(check, a);
  const SdpaOptions opt = check.ok() ? to_sdpa_options(check, a, b) : SdpaOptions{};
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
  const AttentionDims dims = to_dims(check, a);
  const SdpaOptions opt = check.ok() ? to_sdpa_options(check, a, b) : SdpaOptions{};
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

double scoring_scratch_entry(const ScoringArgs& a) {
  Boundary check("scoringScratchFloats");
  const ScoringDims dims = to_dims(check, a);
  if (!check.ok()) return check.raise(), 0;
  const double widest = std::max({a.dq, a.dk, a.dv, a.hidden});
  // additive and concat materialise the (B, H, Tq, Tk) scores in scratch; general streams like sdpa.
  const bool materialises = a.scoring == int(Scoring::additive) || a.scoring == int(Scoring::concat);
  const double scores = materialises ? count(a.B, a.H, a.Tq, a.Tk) : 0;
  if (!fits({scores, count(a.B, a.H, a.Tq, widest), count(a.B, a.Hkv, a.Tk, widest), count(a.dq, a.dk),
             count(a.dq + a.dk, a.hidden)}))
    return HUGE_VAL;
  return double(scoring_scratch_floats(dims, Scoring(a.scoring)));
}

// The parameters `scoring` reads (and whose gradients the backward writes), with their sizes.
void check_scoring_params(Boundary& check, const ScoringArgs& a, uintptr_t w, uintptr_t wq, uintptr_t wk,
                          uintptr_t wv, const char* const names[4]) {
  const Scoring s = Scoring(a.scoring);
  check.require(s == Scoring::general || s == Scoring::concat || w == 0, "w is only read by general and concat");
  check.require(s == Scoring::additive || (wq == 0 && wk == 0 && wv == 0), "wq, wk, wv are only read by additive");
  if (s == Scoring::general) check.span(names[0], w, count(a.dq, a.dk), 4);
  if (s == Scoring::concat) check.span(names[0], w, double(a.dq) + a.dk, 4);
  if (s == Scoring::additive) {
    check.span(names[1], wq, count(a.dq, a.hidden), 4);
    check.span(names[2], wk, count(a.dk, a.hidden), 4);
    check.span(names[3], wv, double(a.hidden), 4);
  }
}

void check_scoring_inputs(Boundary& check, const ScoringArgs& a, const ScoringDims& dims, const Buffers& b) {
  if (!check.ok()) return;
  static const char* const params[4] = {"w", "wq", "wk", "wv"};
  check_scoring_params(check, a, b.w, b.wq, b.wk, b.wv, params);
  check.span("q", b.q, count(a.B, a.H, a.Tq, a.dq), 4);
  check.span("k", b.k, count(a.B, a.Hkv, a.Tk, a.dk), 4);
  check.span("v", b.v, count(a.B, a.Hkv, a.Tk, a.dv), 4);
  if (check.ok() && scoring_scratch_entry(a) < HUGE_VAL)
    check.span("scratch", b.scratch, double(scoring_scratch_floats(dims, Scoring(a.scoring))), 4);
  else
    check.require(false, "the scratch these sizes need does not fit wasm memory");
}

ScoringParams scoring_params(const Buffers& b) { return {f32(b.w), f32(b.wq), f32(b.wk), f32(b.wv)}; }

void scoring_forward_entry(const ScoringArgs& a, const Buffers& b) {
  Boundary check("scoringForward");
  const ScoringDims dims = to_dims(check, a);
  const ScoringOptions opt = check.ok() ? to_scoring_options(check, a, b) : ScoringOptions{};
  check_scoring_inputs(check, a, dims, b);
  check.span("out", b.out, count(a.B, a.H, a.Tq, a.dv), 4);
  check_score_outputs(check, b, count(a.B, a.H, a.Tq, a.Tk), false);
  if (!check.ok()) return check.raise();
  const ScoringForwardOutputs outputs{f32_out(b.out), f32_out(b.weights), f32_out(b.scores), f32_out(b.masked)};
  scoring_forward(dims, opt, scoring_params(b), f32(b.q), f32(b.k), f32(b.v), outputs, f32_out(b.scratch));
}

void scoring_backward_entry(const ScoringArgs& a, const Buffers& b) {
  Boundary check("scoringBackward");
  const ScoringDims dims = to_dims(check, a);
  const ScoringOptions opt = check.ok() ? to_scoring_options(check, a, b) : ScoringOptions{};
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

double layer_scratch_entry(const LayerArgs& a) {
  Boundary check("layerScratchFloats");
  const LayerDims dims = to_dims(check, a);
  if (!check.ok()) return check.raise(), 0;
  const double widest = std::max({double(a.dIn), a.heads * double(std::max(a.dQ, a.dV)), double(a.dOut)});
  if (!fits({count(a.B, a.T, widest), count(a.dIn, widest), count(a.heads, a.dV, a.dOut)})) return HUGE_VAL;
  return double(layer_scratch_floats(dims));
}

// Weights and the saved forward state, read by forward (weights) and backward (both).
void check_layer_weights(Boundary& check, const LayerArgs& a, const Buffers& b) {
  if (!check.ok()) return;
  check.span("wq", b.wq, count(a.dIn, a.heads, a.dQ), 4);
  check.span("wk", b.wk, count(a.dIn, a.kvHeads, a.dQ), 4);
  check.span("wv", b.wv, count(a.dIn, a.kvHeads, a.dV), 4);
  check.span("wo", b.wo, count(a.heads, a.dV, a.dOut), 4, a.dOut == 0);
  check.span("x", b.x, count(a.B, a.T, a.dIn), 4);
  check.span("q", b.q, count(a.B, a.heads, a.T, a.dQ), 4);
  check.span("k", b.k, count(a.B, a.kvHeads, a.T, a.dQ), 4);
  check.span("v", b.v, count(a.B, a.kvHeads, a.T, a.dV), 4);
  check.span("heads", b.heads, count(a.B, a.T, a.heads, a.dV), 4, a.dOut == 0);
  if (check.ok() && layer_scratch_entry(a) < HUGE_VAL)
    check.span("scratch", b.scratch, double(layer_scratch_floats(to_dims(check, a))), 4);
  else
    check.require(false, "the scratch these sizes need does not fit wasm memory");
}

LayerWeights layer_weights(const Buffers& b) { return {f32(b.wq), f32(b.wk), f32(b.wv), f32(b.wo)}; }
LayerSaved layer_saved(const Buffers& b) { return {f32_out(b.q), f32_out(b.k), f32_out(b.v), f32_out(b.heads)}; }

void layer_forward_entry(const LayerArgs& a, const Buffers& b) {
  Boundary check("layerForward");
  const LayerDims dims = to_dims(check, a);
  const SdpaOptions opt = check.ok() ? to_layer_options(check, a, b) : SdpaOptions{};
  const RopeOptions rope = to_layer_rope(check, a);
  check_layer_weights(check, a, b);
  check.span("out", b.out, count(a.B, a.T, dims.out_width()), 4);
  check_score_outputs(check, b, count(a.B, a.heads, a.T, a.T), false);
  if (!check.ok()) return check.raise();
  const SdpaForwardOutputs trace{nullptr, nullptr, f32_out(b.weights), f32_out(b.scores), nullptr, f32_out(b.masked)};
  const bool traced = b.weights || b.scores || b.masked;
  layer_forward(dims, layer_weights(b), opt, f32(b.x), f32_out(b.out), layer_saved(b), traced ? &trace : nullptr,
                f32_out(b.scratch), a.rope ? &rope : nullptr);
}

void layer_backward_entry(const LayerArgs& a, const Buffers& b) {
  Boundary check("layerBackward");
  const LayerDims dims = to_dims(check, a);
  const SdpaOptions opt = check.ok() ? to_layer_options(check, a, b) : SdpaOptions{};
  const RopeOptions rope = to_layer_rope(check, a);
  check_layer_weights(check, a, b);
  check.span("dout", b.dout, count(a.B, a.T, dims.out_width()), 4);
  check.span("dx", b.dx, count(a.B, a.T, a.dIn), 4);
  check.span("dwq", b.dwq, count(a.dIn, a.heads, a.dQ), 4);
  check.span("dwk", b.dwk, count(a.dIn, a.kvHeads, a.dQ), 4);
  check.span("dwv", b.dwv, count(a.dIn, a.kvHeads, a.dV), 4);
  check.span("dwo", b.dwo, count(a.heads, a.dV, a.dOut), 4, a.dOut == 0);
  if (!check.ok()) return check.raise();
  const LayerGrads grads{f32_out(b.dwq), f32_out(b.dwk), f32_out(b.dwv), f32_out(b.dwo)};
  layer_backward(dims, layer_weights(b), opt, f32(b.x), layer_saved(b), f32(b.dout), f32_out(b.dx), grads,
                 f32_out(b.scratch), a.rope ? &rope : nullptr);
}

// w (fanIn, fanOut): Xavier-uniform from (seed, stream), identical in every build.
void init_weights_entry(uintptr_t w, int fan_in, int fan_out, double seed, int stream) {
  Boundary check("initWeights");
  check.positive("fanIn", fan_in);
  check.positive("fanOut", fan_out);
  check.require(seed >= 0 && seed < 9007199254740992.0 && std::floor(seed) == seed, "seed must be an integer in [0, 2^53)");
  check.require(stream >= 0, "stream must be >= 0");
  check.span("w", w, count(fan_in, fan_out), 4);
  if (!check.ok()) return check.raise();
  init_weights(f32_out(w), fan_in, fan_out, uint64_t(seed), uint32_t(stream));
}

// w (n) -= learningRate * g (n)
void sgd_step_entry(uintptr_t w, uintptr_t g, double n, double learning_rate) {
  Boundary check("sgdStep");
  check.require(n >= 0 && std::floor(n) == n, "n must be a non-negative integer");
  check.require(std::isfinite(learning_rate), "learningRate must be finite");
  check.span("w", w, n, 4);
  check.span("g", g, n, 4);
  if (!check.ok()) return check.raise();
  sgd_step(f32_out(w), f32(g), std::size_t(n), float(learning_rate));
}

std::string arch_name_entry() { return kernels::arch_name(); }

// The packed twin of an entry point (packed.hpp): Args then Buffers read from one record of doubles
// at `record`, then the same entry, with all its checks.
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

}  // namespace
}  // namespace attnlab::binding

EMSCRIPTEN_BINDINGS(attnlab) {
  using namespace emscripten;
  using namespace attnlab::binding;

  value_object<Buffers>("Buffers")
      .field("x", &Buffers::x).field("y", &Buffers::y).field("dy", &Buffers::dy).field("dx", &Buffers::dx)
      .field("q", &Buffers::q).field("k", &Buffers::k).field("v", &Buffers::v).field("dout", &Buffers::dout)
      .field("out", &Buffers::out).field("lse", &Buffers::lse).field("weights", &Buffers::weights)
      .field("scores", &Buffers::scores).field("softcapped", &Buffers::softcapped).field("masked", &Buffers::masked)
      .field("heads", &Buffers::heads)
      .field("dq", &Buffers::dq).field("dk", &Buffers::dk).field("dv", &Buffers::dv)
      .field("w", &Buffers::w).field("wq", &Buffers::wq).field("wk", &Buffers::wk).field("wv", &Buffers::wv)
      .field("wo", &Buffers::wo)
      .field("dw", &Buffers::dw).field("dwq", &Buffers::dwq).field("dwk", &Buffers::dwk).field("dwv", &Buffers::dwv)
      .field("dwo", &Buffers::dwo)
      .field("validLens", &Buffers::validLens).field("boolMask", &Buffers::boolMask)
      .field("floatMask", &Buffers::floatMask).field("scratch", &Buffers::scratch)
      .field("alibiSlopes", &Buffers::alibiSlopes);

  value_object<MaskArgs>("MaskArgs")
      .field("validLensPerRow", &MaskArgs::validLensPerRow).field("causal", &MaskArgs::causal)
      .field("strideB", &MaskArgs::strideB).field("strideH", &MaskArgs::strideH)
      .field("strideI", &MaskArgs::strideI).field("strideJ", &MaskArgs::strideJ)
      .field("useFill", &MaskArgs::useFill).field("fill", &MaskArgs::fill)
      .field("windowLeft", &MaskArgs::windowLeft).field("windowRight", &MaskArgs::windowRight);

  value_object<SoftmaxArgs>("SoftmaxArgs")
      .field("B", &SoftmaxArgs::B).field("H", &SoftmaxArgs::H).field("Tq", &SoftmaxArgs::Tq)
      .field("Tk", &SoftmaxArgs::Tk).field("mask", &SoftmaxArgs::mask);

  value_object<SdpaArgs>("SdpaArgs")
      .field("B", &SdpaArgs::B).field("H", &SdpaArgs::H).field("Hkv", &SdpaArgs::Hkv).field("Tq", &SdpaArgs::Tq)
      .field("Tk", &SdpaArgs::Tk).field("d", &SdpaArgs::d).field("dv", &SdpaArgs::dv)
      .field("scale", &SdpaArgs::scale).field("softcap", &SdpaArgs::softcap).field("dropout", &SdpaArgs::dropout)
      .field("seed", &SdpaArgs::seed).field("mask", &SdpaArgs::mask);

  value_object<ScoringArgs>("ScoringArgs")
      .field("B", &ScoringArgs::B).field("H", &ScoringArgs::H).field("Hkv", &ScoringArgs::Hkv)
      .field("Tq", &ScoringArgs::Tq).field("Tk", &ScoringArgs::Tk).field("dq", &ScoringArgs::dq)
      .field("dk", &ScoringArgs::dk).field("dv", &ScoringArgs::dv).field("hidden", &ScoringArgs::hidden)
      .field("scoring", &ScoringArgs::scoring).field("scale", &ScoringArgs::scale).field("mask", &ScoringArgs::mask);

  value_object<LayerArgs>("LayerArgs")
      .field("B", &LayerArgs::B).field("T", &LayerArgs::T).field("dIn", &LayerArgs::dIn).field("dQ", &LayerArgs::dQ)
      .field("dV", &LayerArgs::dV).field("heads", &LayerArgs::heads).field("kvHeads", &LayerArgs::kvHeads)
      .field("dOut", &LayerArgs::dOut).field("scale", &LayerArgs::scale).field("mask", &LayerArgs::mask)
      .field("rope", &LayerArgs::rope).field("ropeBase", &LayerArgs::ropeBase)
      .field("ropeInterleaved", &LayerArgs::ropeInterleaved).field("ropeOffset", &LayerArgs::ropeOffset);

  function("archName", &arch_name_entry);
  function("vectorWidth", &attnlab::kernels::width);
  function("maskedSoftmaxForward", &masked_softmax_forward_entry);
  function("maskedSoftmaxBackward", &masked_softmax_backward_entry);
  function("sdpaScratchFloats", &sdpa_scratch_entry);
  function("sdpaForward", &sdpa_forward_entry);
  function("sdpaBackward", &sdpa_backward_entry);
  function("scoringScratchFloats", &scoring_scratch_entry);
  function("scoringForward", &scoring_forward_entry);
  function("scoringBackward", &scoring_backward_entry);
  value_object<RopeArgs>("RopeArgs")
      .field("N", &RopeArgs::N).field("T", &RopeArgs::T).field("d", &RopeArgs::d).field("base", &RopeArgs::base)
      .field("offset", &RopeArgs::offset).field("interleaved", &RopeArgs::interleaved);

  function("ropeForward", &rope_forward_entry);
  function("ropeBackward", &rope_backward_entry);
  function("layerScratchFloats", &layer_scratch_entry);
  function("layerForward", &layer_forward_entry);
  function("layerBackward", &layer_backward_entry);
  function("initWeights", &init_weights_entry);
  function("sgdStep", &sgd_step_entry);

  // Packed twins (packed.hpp): for small calls, where Embind's value_object conversion dominates.
  function("packedLayout", &packed_layout);
  function("maskedSoftmaxForwardPacked", &packed_entry<SoftmaxArgs, &masked_softmax_forward_entry>);
  function("maskedSoftmaxBackwardPacked", &packed_entry<SoftmaxArgs, &masked_softmax_backward_entry>);
  function("sdpaForwardPacked", &packed_entry<SdpaArgs, &sdpa_forward_entry>);
  function("sdpaBackwardPacked", &packed_entry<SdpaArgs, &sdpa_backward_entry>);
  function("scoringForwardPacked", &packed_entry<ScoringArgs, &scoring_forward_entry>);
  function("scoringBackwardPacked", &packed_entry<ScoringArgs, &scoring_backward_entry>);
}
