// ir/grouped_chain.h — the epilogue form of CUTLASS 2.x's grouped GEMM, D = act(alpha * acc + beta * C): which of a
// chain's stages play alpha, C and act. check (C420) rejects what does not fit; the 2.x emitter writes the rest.
#pragma once

#include <cstddef>

#include "ir/kernel_config.h"

namespace ucut {

struct GroupedChain {
  const EpiOp* scale = nullptr;       // `scale(alpha)`
  const EpiOp* residual = nullptr;    // `residual(C)`, read as D's element type
  const EpiOp* activation = nullptr;  // one activation, applied last
  size_t activation_stage = 0;        // its index in the chain
  const EpiOp* unsupported = nullptr; // the first stage outside the form (out of order, repeated, other kinds)
};

GroupedChain grouped_chain(const KernelConfig& cfg);

}  // namespace ucut
