#include "packed.hpp"

namespace attnlab::binding {
namespace {
// "a,b,c," -> "a,b,c"
std::string names(std::string joined) {
  joined.pop_back();
  return joined;
}
}  // namespace

std::string packed_layout() {
#define ATTNLAB_NAME(type, field, init) #field ","
#define ATTNLAB_ADDRESS_NAME(field) #field ","
  return "MaskArgs=" + names(ATTNLAB_MASK_ARGS(ATTNLAB_NAME)) +
         ";SoftmaxArgs=" + names(ATTNLAB_SOFTMAX_ARGS(ATTNLAB_NAME)) +
         ";SdpaArgs=" + names(ATTNLAB_SDPA_ARGS(ATTNLAB_NAME)) +
         ";ScoringArgs=" + names(ATTNLAB_SCORING_ARGS(ATTNLAB_NAME)) +
         ";LayerArgs=" + names(ATTNLAB_LAYER_ARGS(ATTNLAB_NAME)) +
         ";RopeArgs=" + names(ATTNLAB_ROPE_ARGS(ATTNLAB_NAME)) +
         ";InitArgs=" + names(ATTNLAB_INIT_ARGS(ATTNLAB_NAME)) +
         ";StepArgs=" + names(ATTNLAB_STEP_ARGS(ATTNLAB_NAME)) +
         ";TransformerArgs=" + names(ATTNLAB_TRANSFORMER_ARGS(ATTNLAB_NAME)) +
         ";ModelCallArgs=" + names(ATTNLAB_MODEL_CALL_ARGS(ATTNLAB_NAME)) +
         ";Buffers=" + names(ATTNLAB_BUFFERS(ATTNLAB_ADDRESS_NAME));
#undef ATTNLAB_ADDRESS_NAME
#undef ATTNLAB_NAME
}

}  // namespace attnlab::binding
