// emit/sm90/conv.h — the SM90 convolution emitter: CUTLASS 3.x implicit GEMM (conv CollectiveBuilder, TMA im2col
// loads) with the same epilogue (plain or EVT) as the GEMMs, wrapped in the kernel ABI.
#pragma once

#include "emit/backend.h"

namespace ucut::sm90 {

EmittedKernel emit_conv(const SourceFile& src, const KernelConfig& cfg);

}  // namespace ucut::sm90
