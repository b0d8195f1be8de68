// problem/conv_abi.h — a convolution's geometry as the kernel ABI carries it (ucut_conv_args), and what the SM90 kernel
// runs a transposed convolution as (abi/transposed_phases.h, shared with the emitted kernels).
#pragma once

#include <optional>
#include <vector>

#include "abi/kernel_abi.h"
#include "abi/transposed_phases.h"
#include "problem/shape.h"

namespace ucut {

/// The ABI's ucut_conv_args of `s`: extents in 32 bits (problem checks refuse larger ones first).
ucut_conv_args conv_args(const ConvShape& s);

/// The work of the SM90 kernel's transposed convolution (one forward convolution per output phase) as one implicit
/// GEMM: M = Y's pixels, N = its channels c, K = k x the filter slots per output pixel averaged over the phases
/// (rounded up; phases without a tap run one zero tap). nullopt for any other convolution, or one the kernel refuses.
struct PhaseGemm {
  int64_t m = 0, n = 0, k = 0;
};
std::optional<PhaseGemm> phase_gemm(const ConvShape& s);

/// Whether a forward convolution is pointwise once X is copied with `fold(fold)` (which absorbs the folded
/// dimensions' filter, stride and padding): every other dimension has a 1-tap filter, stride 1 and no padding. Such a
/// convolution is a GEMM over [pixels, channels] (KernelConfig::conv_as_gemm).
bool pointwise_after_fold(const ConvShape& s, int fold);
/// The same for a problem's shapes: there are some, and every one is such a convolution.
bool pointwise_after_fold(const std::vector<GemmShape>& shapes, int fold);

}  // namespace ucut
