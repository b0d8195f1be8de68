// emit/sm80/conv.h — the CUTLASS 2.x convolution emitters, wrapped in the kernel ABI: implicit GEMMs (conv.cpp:
// fprop, transposed as strided dgrad, wgrad, grouped fprop) with a thread-level epilogue functor
// (ir/linear_chain.h); depthwise convolutions as CUTLASS's direct convolution (depthwise.cpp).
#pragma once

#include "emit/backend.h"

namespace ucut::sm80 {

EmittedKernel emit_conv(const SourceFile& src, const KernelConfig& cfg);
EmittedKernel emit_depthwise(const SourceFile& src, const KernelConfig& cfg);

}  // namespace ucut::sm80
