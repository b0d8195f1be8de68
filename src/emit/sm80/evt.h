// emit/sm80/evt.h — the `>>` chain as one CUTLASS 2.x Sm80EVT visitor tree (epilogue/threadblock/fusion).
#pragma once

#include "emit/evt_builder.h"

namespace ucut::sm80 {

/// The tree's root stores D; it expects `OutputTileThreadMap`, `ElementC`, `ElementD` and `ElementCompute` aliases.
EvtTree build_evt(const KernelConfig& cfg);

/// An activation stage as a 2.x functor template: CUTLASS's own, or for a parameterized one a wrapper with the spec's
/// constants baked in (2.x epilogues pass no functor arguments): {functor name, its definition to emit first or ""}.
std::pair<std::string, std::string> activation_functor(const EpiOp& op, size_t stage);

}  // namespace ucut::sm80
