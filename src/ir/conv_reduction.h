// ir/conv_reduction.h — which reductions the 2.x convolutions run: CUTLASS 4.2's DefaultConv2dFpropWithReduction
// (EpilogueWithReduction around the functor LinearCombinationWithElementwise). Its epilogue computes
// D = alpha * acc + beta * C (no activation), stores D, and sums each of its tile's columns over the tile's rows into
// one partial row of a [tiles along the output pixels, K] buffer; a second kernel finishes the per-channel sums.
// check (C421) words the refusals; emit/sm80/conv.cpp builds the rest.
#pragma once

#include "ir/kernel_config.h"

namespace ucut {

/// How a reduction stage of a 2.x convolution fits that kernel.
enum class Conv2xReduction {
  fits,         // col_sum, last before the store, of [scale] >> [residual or bias(col)] on a 1D/2D forward conv
  per_pixel,    // row_sum/row_max: the epilogue reduces over rows only, one value per output channel
  max,          // col_max: the partials start from 0 and rows past the output's end count as 0
  no_kernel,    // 3D, transposed, filter-gradient or grouped convolution: no kernel with this epilogue
  simt,         // exact f32 (SIMT) math: the reduction epilogue is built for tensor cores only
  accumulator,  // not f32 accumulators: the partial sums are kept in the accumulator type
  several,      // a second reduction: the kernel writes one vector
  form,         // another chain: the functor is alpha * acc + beta * C, and the sum is of what D stores
};

Conv2xReduction conv2x_reduction_fit(const KernelConfig& cfg, const EpiOp& op);

/// The one reduction a 2.x convolution runs through the reduction epilogue, or nullptr (none, or one that does not
/// fit: check refuses those).
const EpiOp* conv2x_reduction(const KernelConfig& cfg);

}  // namespace ucut
