// eval/conv_abi.h — a convolution's geometry as the kernel ABI carries it (ucut_conv_args), and what the SM90 kernel
// runs a strided transposed convolution as (emit/templates/subpixel_geometry.h, shared with the emitted kernels).
#pragma once

#include <optional>
#include <vector>

#include "emit/templates/kernel_abi.h"
#include "emit/templates/subpixel_geometry.h"
#include "eval/protocol.h"

namespace ucut {

/// The ABI's ucut_conv_args of `s`: extents in 32 bits (problem checks refuse larger ones first).
ucut_conv_args conv_args(const ConvShape& s);

/// The implicit GEMM of the sub-pixel convolution the SM90 kernel runs a strided transposed convolution as: M rows of
/// its output, N = phases x c channels, K = window taps x k (`compact` as ucut_subpixel_of: no residual C). nullopt
/// for any other convolution.
struct SubpixelGemm {
  int64_t m = 0, n = 0, k = 0;
};
std::optional<SubpixelGemm> subpixel_gemm(const ConvShape& s, bool compact);

/// Whether a forward convolution is pointwise once X is copied with `fold(fold)` (which absorbs the folded
/// dimensions' filter, stride and padding): every other dimension has a 1-tap filter, stride 1 and no padding. Such a
/// convolution is a GEMM over [pixels, channels] (KernelConfig::conv_as_gemm).
bool pointwise_after_fold(const ConvShape& s, int fold);
/// The same for a problem's shapes: there are some, and every one is such a convolution.
bool pointwise_after_fold(const std::vector<GemmShape>& shapes, int fold);

}  // namespace ucut
