// eval/tolerance.cpp — elementwise comparison with tolerances.
#include "eval/tolerance.h"

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

Comparison compare(const float* x, const float* ref, size_t n, const Tolerance& tol) {
  Comparison c;
  c.checked = n;
  double err2 = 0, ref2 = 0;
  int64_t first_nonfinite = -1;
  for (size_t i = 0; i < n; ++i) {
    double r = ref[i], v = x[i];
    if (!std::isfinite(r)) continue;  // the reference overflowed: nothing to hold the candidate to
    if (!std::isfinite(v)) {
      ++c.nonfinite;
      ++c.mismatches;
      if (first_nonfinite < 0) first_nonfinite = static_cast<int64_t>(i);
      continue;
    }
    double e = std::fabs(v - r);
    err2 += e * e;
    ref2 += r * r;
    if (e > tol.atol + tol.rtol * std::fabs(r)) ++c.mismatches;
    c.max_abs_err = std::fmax(c.max_abs_err, e);
    double rel = e / std::fmax(std::fabs(r), tol.atol);
    if (rel > c.max_rel_err || c.worst_index < 0) {
      c.max_rel_err = rel;
      c.worst_index = static_cast<int64_t>(i);
    }
  }
  c.rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  if (c.nonfinite > 0) {  // an unwritten (NaN-poisoned) or overflowed output dominates every other error
    c.max_abs_err = c.max_rel_err = c.rel_l2 = INFINITY;
    c.worst_index = first_nonfinite;
  }
  if (c.worst_index >= 0) {
    c.worst_value = x[c.worst_index];
    c.worst_reference = ref[c.worst_index];
  }
  c.pass = n > 0 && c.mismatches == 0;
  return c;
}

Comparison merge(const Comparison& a, const Comparison& b) {
  Comparison c = a.max_rel_err >= b.max_rel_err ? a : b;
  c.checked = a.checked + b.checked;
  c.mismatches = a.mismatches + b.mismatches;
  c.nonfinite = a.nonfinite + b.nonfinite;
  c.max_abs_err = std::fmax(a.max_abs_err, b.max_abs_err);
  c.rel_l2 = std::fmax(a.rel_l2, b.rel_l2);
  c.pass = a.pass && b.pass;
  return c;
}

}  // namespace ucut
