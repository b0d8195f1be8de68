// ir/linear_chain.h — the epilogue form of CUTLASS 2.x's thread-level epilogue functors (the grouped GEMM, the
// implicit-GEMM and direct convolutions), D = act(alpha * acc + beta * C): which of a chain's stages play alpha, C
// and act. C is a residual tensor, or — where the kernel lets C's pixel stride be 0 (the convolutions) — a per-
// channel `bias(col)` vector broadcast over the pixels with beta = 1. check (C420) rejects what does not fit; the
// 2.x emitters write the rest.
#pragma once

#include <cstddef>

#include "ir/kernel_config.h"

namespace ucut {

struct LinearChain {
  const EpiOp* scale = nullptr;       // `scale(alpha)`
  const EpiOp* residual = nullptr;    // `residual(C)`, read as D's element type
  const EpiOp* bias = nullptr;        // `bias(col)` as C (only with allow_bias), read as D's element type
  const EpiOp* activation = nullptr;  // one activation, applied last
  size_t activation_stage = 0;        // its index in the chain
  const EpiOp* unsupported = nullptr; // the first stage outside the form (out of order, repeated, other kinds)
};

/// Splits the chain; `allow_bias` admits `bias(col)` in C's place (kernels whose C may broadcast over pixels).
LinearChain linear_chain(const KernelConfig& cfg, bool allow_bias);

}  // namespace ucut
