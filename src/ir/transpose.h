// ir/transpose.h — a GEMM as the transposed problem D^T = B^T A^T: what a kernel runs when CUTLASS can only give the
// treatment B needs (conversion in the mainloop, `from(f32, mainloop)`) to its A operand.
#pragma once

#include "ir/kernel_config.h"

namespace ucut {

/// The same GEMM with A and B exchanged and every M x N tensor seen transposed: A' = B^T, B' = A^T, D' = D^T (each
/// layout flipped, the last two extents exchanged; leading dimensions do not change), per-row vectors and
/// reductions become per-column ones and back. The tile, schedule and the rest stay as written: they describe the
/// kernel, which runs the transposed problem.
KernelConfig gemm_transposed(const KernelConfig& cfg);

/// The problem the kernel itself runs: `cfg`, or its transpose when cfg.computes_transpose().
KernelConfig kernel_frame(const KernelConfig& cfg);

}  // namespace ucut
