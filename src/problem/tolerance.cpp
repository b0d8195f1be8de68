// problem/tolerance.cpp — see tolerance.h.
#include "problem/tolerance.h"

#include <algorithm>
#include <cmath>

namespace ucut {

Tolerance default_tolerance(DType operand, MathMode math, DType out) {
  if (out == DType::e4m3) return {7e-2, 7e-2};  // 3 mantissa bits: half a step is 2^-4 relative
  if (out == DType::e5m2) return {1.3e-1, 1.3e-1};
  bool exact_f32 = (operand == DType::f32 || operand == DType::f64) && math == MathMode::native &&
                   (out == DType::f32 || out == DType::f64);
  if (exact_f32) return {1e-4, 1e-4};
  return {1e-2, 1e-2};
}

double accumulation_eps(int64_t k) { return std::sqrt(static_cast<double>(std::max<int64_t>(k, 1))) * std::ldexp(1.0, -22); }

}  // namespace ucut
