// The transformer's entry points (attnlab/transformer.hpp): models live in wasm memory between
// calls, in a registry keyed by an integer handle (1, 2, ...), freed by transformerDestroy. JS
// (web/src/train/) holds the handle, reads and writes the parameter block at its address, and
// checks memory before a call that allocates (a failed std::vector allocation aborts under
// -fno-exceptions): 16 bytes per parameter before transformerCreate, transformerWorkspaceFloats
// before a call on a batch larger than any before. Every entry re-checks what it reads.
#include <emscripten/bind.h>

#include <cmath>
#include <string>
#include <vector>

#include "args.hpp"
#include "attnlab/transformer.hpp"
#include "packed.hpp"

namespace attnlab::binding {
namespace {

// Parameters, gradients and the two moments are one allocation of 4 floats per parameter.
constexpr double kMaxParameters = kMaxFloatsPerBuffer / 4;

std::vector<Transformer*>& registry() {
  static std::vector<Transformer*> models;  // handle h at h - 1; nullptr once destroyed
  return models;
}

// The record at `record` read into an Args, after checking that it lies in wasm memory.
template <class Args>
bool read_record(Boundary& check, uintptr_t record, Args& a) {
  check.span("record", record, double(kPackedDoubles<Args>), 8);
  if (!check.ok()) return false;
  PackedReader reader(record);
  read_packed(reader, a);
  return true;
}

// The configuration, checked: the constraints transformer.hpp leaves to its caller.
TransformerConfig to_config(Boundary& check, const TransformerArgs& a) {
  check.positive({{"vocab", a.vocab},
                  {"dModel", a.dModel},
                  {"layers", a.layers},
                  {"heads", a.heads},
                  {"maxLength", a.maxLength}});
  check.require(a.kvHeads >= 0, "kvHeads must be an integer >= 1 (0: heads)");
  check.require(a.positions >= 0 && a.positions <= 3,
                "positions must be 0 (learned), 1 (rope), 2 (alibi) or 3 (none)");
  check.require(a.window >= 0, "window must be an integer >= 0 (0: none)");
  check.require(a.mlp >= 0, "mlp must be an integer >= 0 (0: attention-only)");
  check.require(a.gelu == 0 || a.gelu == 1, "gelu must be 0 (none) or 1 (tanh)");
  check.require(a.seed >= 0 && a.seed < 9007199254740992.0 && std::floor(a.seed) == a.seed,
                "seed must be an integer in [0, 2^53)");
  check.require(std::isfinite(a.ropeBase) && a.ropeBase > 0, "ropeBase must be a finite number > 0");
  TransformerConfig c;
  if (!check.ok()) return c;
  const int kv = a.kvHeads > 0 ? a.kvHeads : a.heads;
  check.require(a.dModel % a.heads == 0, "dModel must be a multiple of heads");
  check.require(a.heads % kv == 0, "heads must be a multiple of kvHeads");
  check.require(a.positions != int(Positions::rope) || (a.dModel / a.heads) % 2 == 0,
                "rope needs an even head width dModel / heads");
  c.vocab = a.vocab;
  c.d_model = a.dModel;
  c.layers = a.layers;
  c.heads = a.heads;
  c.kv_heads = kv;
  c.max_length = a.maxLength;
  c.positions = Positions(a.positions);
  c.rope_base = a.ropeBase;
  c.window = a.window;
  c.mlp = a.mlp;
  c.gelu = Gelu(a.gelu);
  c.tie = a.tie;
  return c;
}

// The parameter count in double (no size_t of wasm32 can wrap here), transformer.hpp's list.
double parameter_count(const TransformerConfig& c) {
  const double d = c.d_model, qkv = d + 2.0 * c.kv() * c.head_width(), V = c.vocab;
  double layer = 2 * d + qkv * (d + 1) + d * (d + 1);  // norm, qkv, out
  if (c.mlp > 0) layer += 2 * d + c.mlp * (d + 1) + d * (c.mlp + 1);
  const double positions = c.positions == Positions::learned ? double(c.max_length) * d : 0;
  return V * d + positions + c.layers * layer + 2 * d + (c.tie ? 0 : V * d) + V;
}

// The configuration, checked, whose parameters fit one allocation with their gradients and moments.
TransformerConfig checked_config(Boundary& check, const TransformerArgs& a) {
  const TransformerConfig c = to_config(check, a);
  if (check.ok() && !(parameter_count(c) <= kMaxParameters))
    check.require(false,
                  "the model's parameters, with their gradients and AdamW moments, need more than one wasm "
                  "allocation holds (at most 2^27 parameters)");
  return c;
}

// -> the parameter count (the JS side checks 16 bytes per parameter can be allocated).
double parameter_count_entry(uintptr_t record) {
  Boundary check("transformerParameterCount");
  TransformerArgs a;
  if (!read_record(check, record, a)) return check.raise(), 0;
  const TransformerConfig c = checked_config(check, a);
  if (!check.ok()) return check.raise(), 0;
  return parameter_count(c);
}

double create_entry(uintptr_t record) {
  Boundary check("transformerCreate");
  TransformerArgs a;
  if (!read_record(check, record, a)) return check.raise(), 0;
  const TransformerConfig c = checked_config(check, a);
  if (!check.ok()) return check.raise(), 0;
  auto* model = new Transformer(c);
  model->init(uint64_t(a.seed));
  std::vector<Transformer*>& models = registry();
  for (std::size_t i = 0; i < models.size(); ++i)
    if (models[i] == nullptr) return models[i] = model, double(i + 1);
  models.push_back(model);
  return double(models.size());
}

// The live model of `handle`, or nullptr after a failed check.
Transformer* model_of(Boundary& check, double handle) {
  const std::vector<Transformer*>& models = registry();
  const bool known = handle >= 1 && handle <= double(models.size()) && std::floor(handle) == handle;
  Transformer* model = known ? models[std::size_t(handle) - 1] : nullptr;
  check.require(model != nullptr, "handle is not a live model (disposed, or never created)");
  return model;
}

void destroy_entry(double handle) {
  Boundary check("transformerDestroy");
  Transformer* model = model_of(check, handle);
  if (!check.ok()) return check.raise();
  registry()[std::size_t(handle) - 1] = nullptr;
  delete model;
}

// "name=shape0,shape1@offset;...": the parameters in state_dict order (offsets in floats).
std::string layout_entry(double handle) {
  Boundary check("transformerLayout");
  Transformer* model = model_of(check, handle);
  if (!check.ok()) return check.raise(), std::string();
  std::string out;
  for (const ParameterInfo& p : model->parameter_info()) {
    if (!out.empty()) out += ';';
    out += p.name + '=';
    for (std::size_t i = 0; i < p.shape.size(); ++i) out += (i > 0 ? "," : "") + std::to_string(p.shape[i]);
    out += '@' + std::to_string(p.offset);
  }
  return out;
}

// The byte address of the parameter block (the gradients follow parameter_count() floats on).
double parameter_address_entry(double handle) {
  Boundary check("transformerParameterAddress");
  Transformer* model = model_of(check, handle);
  if (!check.ok()) return check.raise(), 0;
  return double(uintptr_t(model->parameters()));
}

// The workspace (floats) a call on (B, T) needs, or HUGE_VAL beyond one allocation. Its largest
// terms are bounded first so that the core's size_t products cannot wrap.
double workspace(const Transformer& model, int B, int T) {
  const TransformerConfig& c = model.config();
  const double N = double(B) * T, qkv = c.d_model + 2.0 * c.kv() * c.head_width();
  for (double term : {N * c.d_model, N * qkv, N * c.mlp, N * c.vocab, double(B) * c.heads * T * T})
    if (!(term <= kMaxFloatsPerBuffer)) return HUGE_VAL;
  const double floats = double(model.workspace_floats(B, T));
  return floats <= kMaxFloatsPerBuffer ? floats : HUGE_VAL;
}

// The model of a call and its batch (B, T), checked: B, T >= 1, T <= maxLength.
Transformer* checked_batch(Boundary& check, const ModelCallArgs& a) {
  Transformer* model = model_of(check, a.handle);
  check.positive({{"B", a.B}, {"T", a.T}});
  if (!check.ok()) return nullptr;
  if (a.T > model->config().max_length) check.require(false, "T must be at most the model's maxLength");
  return check.ok() ? model : nullptr;
}

// checked_batch, a workspace that fits one allocation, and tokens (B, T) within the vocabulary.
Transformer* checked_call(Boundary& check, const ModelCallArgs& a) {
  Transformer* model = checked_batch(check, a);
  if (check.ok())
    check.require(workspace(*model, a.B, a.T) < HUGE_VAL,
                  "the workspace of this batch does not fit one wasm allocation");
  if (!check.ok()) return nullptr;
  const TransformerConfig& c = model->config();
  check.span("tokens", a.tokens, count(a.B, a.T), 4);
  if (!check.ok()) return nullptr;
  const int32_t* tokens = reinterpret_cast<const int32_t*>(a.tokens);
  for (int n = 0; n < a.B * a.T; ++n)
    if (tokens[n] < 0 || tokens[n] >= c.vocab)
      return check.require(false, "tokens must lie in [0, vocab)"), nullptr;
  return model;
}

// -> the workspace's floats, or Infinity beyond one allocation (the JS side says so in its terms).
double workspace_entry(uintptr_t record) {
  Boundary check("transformerWorkspaceFloats");
  ModelCallArgs a;
  if (!read_record(check, record, a)) return check.raise(), 0;
  Transformer* model = checked_batch(check, a);
  if (!check.ok()) return check.raise(), 0;
  return workspace(*model, a.B, a.T);
}

void forward_entry(uintptr_t record) {
  Boundary check("transformerForward");
  ModelCallArgs a;
  if (!read_record(check, record, a)) return check.raise();
  Transformer* model = checked_call(check, a);
  if (!check.ok()) return check.raise();
  const TransformerConfig& c = model->config();
  check.span("logits", a.logits, count(a.B, a.T, c.vocab), 4);
  check.span("attentions", a.attentions, count(a.B, c.layers, c.heads, count(a.T, a.T)), 4, true);
  check.span("residual", a.residual, count(c.layers, a.B, a.T, c.d_model), 4, true);
  if (!check.ok()) return check.raise();
  const TransformerTrace trace{f32_out(a.attentions), f32_out(a.residual)};
  model->forward(a.B, a.T, reinterpret_cast<const int32_t*>(a.tokens), f32_out(a.logits), trace);
}

// The targets and mask of a loss, checked: targets within the vocabulary where the mask counts,
// at least one position counted.
Transformer* checked_loss_call(Boundary& check, const ModelCallArgs& a) {
  Transformer* model = checked_call(check, a);
  if (!check.ok()) return nullptr;
  check.span("targets", a.targets, count(a.B, a.T), 4);
  check.span("lossMask", a.lossMask, count(a.B, a.T), 1, true);
  if (!check.ok()) return nullptr;
  const int32_t* targets = reinterpret_cast<const int32_t*>(a.targets);
  const uint8_t* mask = reinterpret_cast<const uint8_t*>(a.lossMask);
  int counted = 0;
  for (int n = 0; n < a.B * a.T; ++n) {
    if (mask != nullptr && mask[n] == 0) continue;
    ++counted;
    if (targets[n] < 0 || targets[n] >= model->config().vocab)
      return check.require(false, "targets must lie in [0, vocab) where lossMask counts"), nullptr;
  }
  check.require(counted > 0, "lossMask must count at least one position");
  return model;
}

double backward_entry(uintptr_t record) {
  Boundary check("transformerBackward");
  ModelCallArgs a;
  if (!read_record(check, record, a)) return check.raise(), 0;
  Transformer* model = checked_loss_call(check, a);
  if (!check.ok()) return check.raise(), 0;
  return model->backward(a.B, a.T, reinterpret_cast<const int32_t*>(a.tokens),
                         reinterpret_cast<const int32_t*>(a.targets),
                         reinterpret_cast<const uint8_t*>(a.lossMask));
}

// -> the loss, or NaN when the loss or a gradient was not finite (nothing changed then).
double train_step_entry(uintptr_t record) {
  Boundary check("transformerTrainStep");
  ModelCallArgs a;
  if (!read_record(check, record, a)) return check.raise(), 0;
  check.require(finite_in_float32(a.learningRate) && a.learningRate >= 0,
                "learningRate must be finite in float32 and >= 0");
  check.require(a.beta1 >= 0 && float_below_one(a.beta1) && a.beta2 >= 0 && float_below_one(a.beta2),
                "betas must lie in [0, 1) in float32");
  check.require(positive_in_float32(a.eps), "eps must be finite and > 0 in float32");
  check.require(finite_in_float32(a.weightDecay) && a.weightDecay >= 0,
                "weightDecay must be finite in float32 and >= 0");
  check.require(finite_in_float32(a.clip) && a.clip >= 0, "clip must be finite in float32 and >= 0 (0: off)");
  Transformer* model = check.ok() ? checked_loss_call(check, a) : nullptr;
  if (!check.ok()) return check.raise(), 0;
  AdamWOptions opt;
  opt.learning_rate = float(a.learningRate);
  opt.beta1 = float(a.beta1);
  opt.beta2 = float(a.beta2);
  opt.eps = float(a.eps);
  opt.weight_decay = float(a.weightDecay);
  opt.clip = float(a.clip);
  return model->train_step(a.B, a.T, reinterpret_cast<const int32_t*>(a.tokens),
                           reinterpret_cast<const int32_t*>(a.targets),
                           reinterpret_cast<const uint8_t*>(a.lossMask), opt);
}

}  // namespace
}  // namespace attnlab::binding

EMSCRIPTEN_BINDINGS(attnlab_transformer) {
  using namespace emscripten;
  using namespace attnlab::binding;
  // Each *record entry takes the address of a packed record (packed.hpp): TransformerArgs or ModelCallArgs.
  function("transformerParameterCount", &parameter_count_entry);
  function("transformerCreate", &create_entry);
  function("transformerDestroy", &destroy_entry);
  function("transformerLayout", &layout_entry);
  function("transformerParameterAddress", &parameter_address_entry);
  function("transformerWorkspaceFloats", &workspace_entry);
  function("transformerForward", &forward_entry);
  function("transformerBackward", &backward_entry);
  function("transformerTrainStep", &train_step_entry);
}
