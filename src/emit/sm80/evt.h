// emit/sm80/evt.h — the `>>` chain as one CUTLASS 2.x Sm80EVT visitor tree (epilogue/threadblock/fusion).
#pragma once

#include "emit/evt_builder.h"

namespace ucut::sm80 {

/// The tree's root stores D; it expects `OutputTileThreadMap`, `ElementC`, `ElementD` and `ElementCompute` aliases.
EvtTree build_evt(const KernelConfig& cfg);

}  // namespace ucut::sm80
