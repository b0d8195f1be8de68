// emit/sm80/broadcast_epilogue.cpp — see broadcast_epilogue.h.
#include "emit/sm80/broadcast_epilogue.h"

#include <fmt/format.h>

#include "emit/sm80/evt.h"
#include "emit/sm80/linear_epilogue.h"

namespace ucut::sm80 {

void write_broadcast_epilogue(CppWriter& w, const BroadcastChain& chain, std::string_view count) {
  w.comment("CUTLASS's broadcast epilogue: T = alpha * acc + beta * C + V[k] (V the per-channel bias), Y = act(T),");
  w.comment(chain.aux ? "and T stored as a second tensor (aux_store)." : "T not stored.");
  w.alias("ElementT", chain.aux ? std::string(cutlass_type(chain.aux->tensor->dtype.value)) : "ElementD");
  w.alias("ElementVector", chain.bias ? std::string(cutlass_type(chain.bias->dtype.value)) : "ElementD");
  std::string act = "cutlass::epilogue::thread::Identity";
  if (chain.activation) {
    auto [functor, preamble] = activation_functor(*chain.activation, chain.activation_stage);
    if (!preamble.empty()) w.verbatim(preamble);
    act = functor;
  }
  w.line("using EpilogueOutputOp = cutlass::epilogue::thread::LinearCombinationBiasElementwise<ElementD,");
  w.line(fmt::format("    ElementAccumulator, ElementCompute, ElementD, ElementT, {}, {}<ElementCompute>,", count, act));
  w.line(fmt::format("    cutlass::plus<ElementCompute>, /*StoreT=*/{}, ElementVector>;", chain.aux ? "true" : "false"));
}

BroadcastArguments broadcast_arguments(const KernelConfig& cfg, const BroadcastChain& chain) {
  BroadcastArguments r;
  r.alpha = chain.scale ? scalar_slot(cfg, *chain.scale) : "1.0f";
  r.beta = chain.residual ? scalar_slot(cfg, *chain.residual) : "0.0f";
  r.vector = chain.bias ? fmt::format("const_cast<void*>(a->vectors[{}])", vector_slot(cfg, *chain.bias)) : "nullptr";
  r.tensor = chain.aux ? fmt::format("a->aux[{}].ptr", aux_slot(cfg, *chain.aux)) : "nullptr";
  return r;
}

}  // namespace ucut::sm80
