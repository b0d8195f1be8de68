// emit/sm80/linear_epilogue.cpp — see linear_epilogue.h.
#include "emit/sm80/linear_epilogue.h"

#include <fmt/format.h>

#include "emit/sm80/evt.h"
#include "ir/abi_slots.h"

namespace ucut::sm80 {
namespace {

size_t stage_of(const KernelConfig& cfg, const EpiOp& op) { return static_cast<size_t>(&op - cfg.epilogue.data()); }

}  // namespace

std::string scalar_slot(const KernelConfig& cfg, const EpiOp& op) {
  return fmt::format("a->scalars[{}]", slot_index(abi_slots(cfg).scalars, stage_of(cfg, op)));
}

void write_linear_epilogue(CppWriter& w, const LinearChain& chain, std::string_view count) {
  if (!chain.activation) {
    w.alias("EpilogueOutputOp", fmt::format("cutlass::epilogue::thread::LinearCombination<ElementD, {}, "
                                            "ElementAccumulator, ElementCompute>",
                                            count));
    return;
  }
  auto [functor, preamble] = activation_functor(*chain.activation, chain.activation_stage);
  if (!preamble.empty()) w.verbatim(preamble);
  w.alias("EpilogueOutputOp", fmt::format("cutlass::epilogue::thread::LinearCombinationGeneric<{}, ElementD, {}, "
                                          "ElementAccumulator, ElementCompute>",
                                          functor, count));
}

LinearScalars linear_scalars(const KernelConfig& cfg, const LinearChain& chain) {
  return {chain.scale ? scalar_slot(cfg, *chain.scale) : "1.0f",
          chain.residual ? scalar_slot(cfg, *chain.residual) : chain.bias ? "1.0f" : "0.0f"};
}

size_t vector_slot(const KernelConfig& cfg, const EpiOp& op) {
  return slot_index(abi_slots(cfg).vectors, stage_of(cfg, op));
}

size_t aux_slot(const KernelConfig& cfg, const EpiOp& op) {
  return slot_index(abi_slots(cfg).aux, stage_of(cfg, op));
}

}  // namespace ucut::sm80
