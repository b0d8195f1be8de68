// emit/sm80/conv_reduction.h — the per-channel sum of a 2.x forward convolution (ir/conv_reduction.h) around CUTLASS's
// DefaultConv2dFpropWithReduction: its epilogue functor, and the host side that finishes the sum. The kernel writes one
// partial row per CTA row of tiles into a buffer after its workspace (the ABI wrapper's staging, emit/abi_wrapper.h);
// after each run a second kernel sums those rows in a fixed order into the reduction's vector.
#pragma once

#include <string_view>

#include "emit/cpp_writer.h"
#include "ir/kernel_config.h"

namespace ucut::sm80 {

/// `using EpilogueOutputOp = LinearCombinationWithElementwise<...>` (D = alpha * acc + beta * C) and `ReductionOp`;
/// `count` elements per access. Expects ElementD, ElementAccumulator and ElementCompute.
void write_reduction_epilogue(CppWriter& w, std::string_view count);

/// The staging functions write_host_api calls (staging_bytes, staged_arguments, ..., stage_out) and the finishing
/// kernel, for the reduction stage `op`. Expects ConvKernel and ThreadblockShape.
void write_reduction_staging(CppWriter& w, const KernelConfig& cfg, const EpiOp& op);

}  // namespace ucut::sm80
