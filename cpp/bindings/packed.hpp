// Packed arguments: the one ABI between web/src and the binding. Every entry point takes the
// address of one record of doubles that the JS side wrote into wasm memory: the *Args fields, then
// (for entries that touch tensors) the Buffers addresses, in the order of the lists below. The JS
// side reads the same lists from packedLayout(), so they are written once, here.
// Why not Embind's value_objects: they convert field by field (a call into wasm per field and a
// malloc per object, ~3 us for SdpaArgs + Buffers, more than a 4x4 attention), and their
// temporaries leak (~200 bytes) when a check throws out of the entry, and abort on a failed new.
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include "args.hpp"

// X-lists of the fields, in record order. A nested MaskArgs is written in place, in its own order.
#define ATTNLAB_MASK_ARGS(X)                                                                   \
  X(validLensPerRow) X(causal) X(strideB) X(strideH) X(strideI) X(strideJ) X(useFill) X(fill) \
  X(windowLeft) X(windowRight)
#define ATTNLAB_SOFTMAX_ARGS(X) X(B) X(H) X(Tq) X(Tk) X(mask)
#define ATTNLAB_SDPA_ARGS(X) X(B) X(H) X(Hkv) X(Tq) X(Tk) X(d) X(dv) X(scale) X(softcap) X(dropout) X(seed) X(mask)
#define ATTNLAB_SCORING_ARGS(X) \
  X(B) X(H) X(Hkv) X(Tq) X(Tk) X(dq) X(dk) X(dv) X(hidden) X(scoring) X(scale) X(mask)
#define ATTNLAB_LAYER_ARGS(X)                                                   \
  X(B) X(T) X(dIn) X(dQ) X(dV) X(heads) X(kvHeads) X(dOut) X(scale) X(mask) \
  X(rope) X(ropeBase) X(ropeInterleaved) X(ropeOffset) X(cacheLength) X(cacheCapacity)
#define ATTNLAB_ROPE_ARGS(X) X(N) X(T) X(d) X(base) X(offset) X(interleaved)
#define ATTNLAB_INIT_ARGS(X) X(fanIn) X(fanOut) X(seed) X(stream)
#define ATTNLAB_STEP_ARGS(X) X(n) X(learningRate)
#define ATTNLAB_BUFFERS(X)                                                                              \
  X(x) X(y) X(dy) X(dx) X(q) X(k) X(v) X(dout) X(out) X(lse) X(weights) X(scores) X(softcapped) X(masked) \
  X(heads) X(dq) X(dk) X(dv) X(w) X(wq) X(wk) X(wv) X(wo) X(dw) X(dwq) X(dwk) X(dwv) X(dwo) X(validLens)  \
  X(boolMask) X(floatMask) X(scratch) X(alibiSlopes)

namespace attnlab::binding {

// Reads the fields of a record in order. Out-of-range numbers become values the boundary checks
// reject (INT_MIN sizes, address 0), never undefined conversions.
class PackedReader {
 public:
  explicit PackedReader(uintptr_t address) : at_(reinterpret_cast<const double*>(address)) {}

  void read(int& field) {
    const double x = *at_++;
    field = x >= INT_MIN && x <= INT_MAX ? int(x) : INT_MIN;
  }
  void read(double& field) { field = *at_++; }
  void read(bool& field) { field = *at_++ != 0; }
  void read(uintptr_t& field) {
    const double x = *at_++;
    field = x >= 0 && x < 4294967296.0 ? uintptr_t(x) : 0;
  }
  void read(MaskArgs& m) {
#define ATTNLAB_READ(field) read(m.field);
    ATTNLAB_MASK_ARGS(ATTNLAB_READ)
#undef ATTNLAB_READ
  }

 private:
  const double* at_;
};

// Doubles a field takes in a record: one, or a MaskArgs' own fields.
template <class Field>
inline constexpr int kPackedDoubles = 1;
#define ATTNLAB_COUNT(field) +1
template <>
inline constexpr int kPackedDoubles<MaskArgs> = 0 ATTNLAB_MASK_ARGS(ATTNLAB_COUNT);
template <>
inline constexpr int kPackedDoubles<Buffers> = 0 ATTNLAB_BUFFERS(ATTNLAB_COUNT);
#undef ATTNLAB_COUNT

// One read_packed and one record size per *Args struct, both from its list.
#define ATTNLAB_PACKED_ARGS(Args, LIST)                                         \
  inline void read_packed(PackedReader& reader, Args& a) {                      \
    LIST(ATTNLAB_READ_FIELD)                                                    \
  }                                                                             \
  template <>                                                                   \
  inline constexpr int kPackedDoubles<Args> = 0 LIST(ATTNLAB_COUNT_FIELD_OF_##Args);
#define ATTNLAB_READ_FIELD(field) reader.read(a.field);
#define ATTNLAB_COUNT_FIELD_OF_SoftmaxArgs(field) +kPackedDoubles<decltype(SoftmaxArgs::field)>
#define ATTNLAB_COUNT_FIELD_OF_SdpaArgs(field) +kPackedDoubles<decltype(SdpaArgs::field)>
#define ATTNLAB_COUNT_FIELD_OF_ScoringArgs(field) +kPackedDoubles<decltype(ScoringArgs::field)>
#define ATTNLAB_COUNT_FIELD_OF_LayerArgs(field) +kPackedDoubles<decltype(LayerArgs::field)>
#define ATTNLAB_COUNT_FIELD_OF_RopeArgs(field) +kPackedDoubles<decltype(RopeArgs::field)>
#define ATTNLAB_COUNT_FIELD_OF_InitArgs(field) +kPackedDoubles<decltype(InitArgs::field)>
#define ATTNLAB_COUNT_FIELD_OF_StepArgs(field) +kPackedDoubles<decltype(StepArgs::field)>
ATTNLAB_PACKED_ARGS(SoftmaxArgs, ATTNLAB_SOFTMAX_ARGS)
ATTNLAB_PACKED_ARGS(SdpaArgs, ATTNLAB_SDPA_ARGS)
ATTNLAB_PACKED_ARGS(ScoringArgs, ATTNLAB_SCORING_ARGS)
ATTNLAB_PACKED_ARGS(LayerArgs, ATTNLAB_LAYER_ARGS)
ATTNLAB_PACKED_ARGS(RopeArgs, ATTNLAB_ROPE_ARGS)
ATTNLAB_PACKED_ARGS(InitArgs, ATTNLAB_INIT_ARGS)
ATTNLAB_PACKED_ARGS(StepArgs, ATTNLAB_STEP_ARGS)
inline void read_packed(PackedReader& reader, Buffers& a) { ATTNLAB_BUFFERS(ATTNLAB_READ_FIELD) }
#undef ATTNLAB_PACKED_ARGS
#undef ATTNLAB_READ_FIELD
#undef ATTNLAB_COUNT_FIELD_OF_SoftmaxArgs
#undef ATTNLAB_COUNT_FIELD_OF_SdpaArgs
#undef ATTNLAB_COUNT_FIELD_OF_ScoringArgs
#undef ATTNLAB_COUNT_FIELD_OF_LayerArgs
#undef ATTNLAB_COUNT_FIELD_OF_RopeArgs
#undef ATTNLAB_COUNT_FIELD_OF_InitArgs
#undef ATTNLAB_COUNT_FIELD_OF_StepArgs

// "MaskArgs=validLensPerRow,...;SoftmaxArgs=B,...,mask;...;Buffers=x,y,...": the lists above, for
// web/src/boundary/packed.js to build its record writers from (a field named mask is a MaskArgs).
std::string packed_layout();

}  // namespace attnlab::binding
