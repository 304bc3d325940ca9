// Packed arguments: the one ABI between web/src and the binding. Every entry point takes the
// address of one record of doubles that the JS side wrote into wasm memory: the *Args fields, then
// (for entries that touch tensors) the Buffers addresses, in the order of their lists (args.hpp).
// The JS side reads the same lists from packedLayout(), so they are written once, in args.hpp.
// Why not Embind's value_objects: they convert field by field (a call into wasm per field and a
// malloc per object: for SdpaArgs + Buffers more than a 4x4 attention takes), and their
// temporaries leak (~200 bytes) when a check throws out of the entry, and abort on a failed new.
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include "args.hpp"

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

 private:
  const double* at_;
};

// Doubles a field takes in a record: one, or a nested struct's own fields (a MaskArgs).
template <class Field>
inline constexpr int kPackedDoubles = 1;

// A number field; the structs' overloads below read theirs in list order.
template <class Field>
void read_packed(PackedReader& reader, Field& field) {
  reader.read(field);
}

// One record size and one read_packed per struct, both from its list.
#define ATTNLAB_COUNT_FIELD(type, name, init) +kPackedDoubles<type>
#define ATTNLAB_READ_FIELD(type, name, init) read_packed(reader, a.name);
#define ATTNLAB_PACKED(Struct, LIST)                                         \
  template <>                                                                \
  inline constexpr int kPackedDoubles<Struct> = 0 LIST(ATTNLAB_COUNT_FIELD); \
  inline void read_packed(PackedReader& reader, Struct& a) { LIST(ATTNLAB_READ_FIELD) }
ATTNLAB_PACKED(MaskArgs, ATTNLAB_MASK_ARGS)  // first: the others hold one
ATTNLAB_PACKED(SoftmaxArgs, ATTNLAB_SOFTMAX_ARGS)
ATTNLAB_PACKED(SdpaArgs, ATTNLAB_SDPA_ARGS)
ATTNLAB_PACKED(ScoringArgs, ATTNLAB_SCORING_ARGS)
ATTNLAB_PACKED(LayerArgs, ATTNLAB_LAYER_ARGS)
ATTNLAB_PACKED(RopeArgs, ATTNLAB_ROPE_ARGS)
ATTNLAB_PACKED(InitArgs, ATTNLAB_INIT_ARGS)
ATTNLAB_PACKED(StepArgs, ATTNLAB_STEP_ARGS)
ATTNLAB_PACKED(TransformerArgs, ATTNLAB_TRANSFORMER_ARGS)
ATTNLAB_PACKED(ModelCallArgs, ATTNLAB_MODEL_CALL_ARGS)
#undef ATTNLAB_PACKED
#undef ATTNLAB_READ_FIELD
#undef ATTNLAB_COUNT_FIELD

#define ATTNLAB_COUNT_ADDRESS(name) +1
#define ATTNLAB_READ_ADDRESS(name) reader.read(a.name);
template <>
inline constexpr int kPackedDoubles<Buffers> = 0 ATTNLAB_BUFFERS(ATTNLAB_COUNT_ADDRESS);
inline void read_packed(PackedReader& reader, Buffers& a) { ATTNLAB_BUFFERS(ATTNLAB_READ_ADDRESS) }
#undef ATTNLAB_READ_ADDRESS
#undef ATTNLAB_COUNT_ADDRESS

// "MaskArgs=validLensPerRow,...;SoftmaxArgs=B,...,mask;...;Buffers=x,y,...": the lists of
// args.hpp, for web/src/boundary/packed.js to build its record writers from (a field named mask is a
// MaskArgs).
std::string packed_layout();

}  // namespace attnlab::binding
