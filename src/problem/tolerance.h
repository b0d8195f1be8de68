// problem/tolerance.h — what "correct" means for a problem: allclose-style elementwise bounds (KernelBench: 1e-4 for
// FP32, 1e-2 for FP16/BF16), with a term for long accumulations; eval/compare.h applies them.
#pragma once

#include <cstdint>

#include "ir/types.h"

namespace ucut {

struct Tolerance {
  double atol = 1e-2;
  double rtol = 1e-2;
  /// Reduction-length term: elements may also differ by acc_eps · bound[i], where bound[i] = Σ_k |a_ik||b_kj|
  /// (times the epilogue's gain). Two correct fp32-accumulating GEMMs summing K products in different orders
  /// (tensor cores, split-K) disagree by about that much on elements that cancel to near zero; a fixed atol
  /// would call them wrong at large K. 0 disables it (pure allclose).
  double acc_eps = 0;
};

/// acc_eps for a K-long fp32 accumulation: sqrt(K) · 2^-22 (random-walk rounding at 4 ulp of fp32, allowing
/// for tensor cores that align products before adding).
double accumulation_eps(int64_t k);

/// The default tolerance for results of `out` computed from operands multiplied in `math` precision:
/// f32 exact 1e-4; tf32, f16, bf16 1e-2; FP8 outputs by their rounding step.
Tolerance default_tolerance(DType operand, MathMode math, DType out);

}  // namespace ucut
