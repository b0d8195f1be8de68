// emit/sm80/broadcast_epilogue.h — CUTLASS 2.x's broadcast epilogue for a chain split by ir/broadcast_chain.h: the
// thread functor LinearCombinationBiasElementwise (T = alpha * acc + beta * C + V[k], Y = act(T)) that the
// DefaultConv2d/3dFpropWithBroadcast kernels run, and the kernel arguments it reads over the ABI's slots. Used by
// the 2.x forward convolutions (emit/sm80/conv.cpp).
#pragma once

#include <string>
#include <string_view>

#include "emit/cpp_writer.h"
#include "ir/broadcast_chain.h"

namespace ucut::sm80 {

/// `using ElementT`, `ElementVector` and `EpilogueOutputOp = LinearCombinationBiasElementwise<...>` (a parameterized
/// activation as a functor written first); `count` elements per access. Expects ElementD, ElementAccumulator and
/// ElementCompute.
void write_broadcast_epilogue(CppWriter& w, const BroadcastChain& chain, std::string_view count);

/// The functor's scalars and the kernel's extra pointers as C++ over `a`: alpha (the scale's slot or 1), beta (the
/// residual's slot, 0 without one), the bias vector V and the aux tensor T (`nullptr` where the chain has none: the
/// epilogue then adds zeros, stores no T).
struct BroadcastArguments {
  std::string alpha, beta, vector, tensor;
};
BroadcastArguments broadcast_arguments(const KernelConfig& cfg, const BroadcastChain& chain);

}  // namespace ucut::sm80
