// emit/sm80/linear_epilogue.h — the CUTLASS 2.x thread-level epilogue functor, D = act(alpha * acc + beta * C), for
// a chain split by ir/linear_chain.h: its type and its alpha/beta over the kernel ABI's slots. Shared by the grouped
// GEMM, the implicit-GEMM convolutions and the depthwise direct convolution; the slot helpers also by the broadcast
// epilogue (broadcast_epilogue.h).
#pragma once

#include <string>
#include <string_view>

#include "emit/cpp_writer.h"
#include "ir/linear_chain.h"

namespace ucut::sm80 {

/// `using EpilogueOutputOp = ...`: LinearCombination, or LinearCombinationGeneric around the chain's activation
/// (a parameterized one as a functor written first); `count` elements per access.
void write_linear_epilogue(CppWriter& w, const LinearChain& chain, std::string_view count);

/// alpha and beta as C++ over `a->scalars`: alpha is the scale's slot or 1; beta the residual's slot, 1 for a bias
/// (C is the broadcast vector), 0 without C.
struct LinearScalars {
  std::string alpha, beta;
};
LinearScalars linear_scalars(const KernelConfig& cfg, const LinearChain& chain);

/// A scale's or residual's runtime scalar as C++ over `a->scalars`.
std::string scalar_slot(const KernelConfig& cfg, const EpiOp& op);

/// The index of a vector stage's slot in `a->vectors`.
size_t vector_slot(const KernelConfig& cfg, const EpiOp& op);

/// The index of an aux_store stage's slot in `a->aux`.
size_t aux_slot(const KernelConfig& cfg, const EpiOp& op);

}  // namespace ucut::sm80
