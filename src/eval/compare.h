// eval/compare.h — a candidate's output against its reference under a problem's tolerance (problem/tolerance.h):
// allclose-style elementwise bounds plus the relative L2 error, over any pair of float arrays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "problem/tolerance.h"

namespace ucut {

struct Comparison {
  size_t checked = 0;
  size_t mismatches = 0;    // |x - ref| > atol + rtol * |ref|, or x not finite where ref is
  size_t nonfinite = 0;     // NaN/Inf in the candidate where the reference is finite (unwritten = NaN poison)
  double max_abs_err = 0;
  double max_rel_err = 0;   // |x - ref| / max(|ref|, atol)
  double rel_l2 = 0;        // ||x - ref|| / ||ref||
  double err2 = 0, ref2 = 0;  // the sums behind rel_l2 (finite elements), so chunks merge exactly
  int64_t worst_index = -1;
  double worst_value = 0, worst_reference = 0;
  bool pass = false;
};

/// Compares candidate `x` with reference `ref` (both n floats): element i passes when
/// |x - ref| <= atol + rtol·|ref| + acc_eps·bound[i] (`bound` may be null). Accumulates in double.
Comparison compare(const float* x, const float* ref, size_t n, const Tolerance& tol, const float* bound = nullptr);

/// How the elements of a reduction output (`row_sum`, `row_max`, `col_sum`, `col_max`) were reduced: element i
/// combines `count` values x_j of the chain (n for row_*, m for col_*).
struct ReductionScale {
  bool max = false;               // max (row_max, col_max) or sum
  int64_t count = 0;              // values per reduced element
  const double* abs_sum = nullptr;  // sums: Σ_j |x_j| per element
  const float* bound = nullptr;   // Σ_j bound_j (sums) or max_j bound_j (max) of the x_j's accumulation bounds, or null
};

/// Compares a reduction output, element i passing when
///   max: |x - ref| <= atol + rtol·|ref| + acc_eps·bound[i]   (D's elementwise tolerance; a max is within the
///        largest error of the values it picks from)
///   sum: |x - ref| <= atol·count + rtol·Σ|x_j| + acc_eps·bound[i] + accumulation_eps(count)·Σ|x_j|
///        (D's tolerance summed over the reduced elements, plus the kernel's own count-long f32 summation)
/// A sum's relative error (max_rel_err) is |x - ref| / max(Σ|x_j|, the absolute terms).
Comparison compare_reduction(const float* x, const float* ref, size_t n, const Tolerance& tol, const ReductionScale& s);

/// Merges comparisons of disjoint parts (chunks of one output, or D and every aux output): counts and sums add,
/// the worst element is the worse of the two.
Comparison merge(const Comparison& a, const Comparison& b);

/// compare() split over `threads` threads (chunks merged exactly); for outputs of tens of millions of elements.
Comparison compare_parallel(const float* x, const float* ref, size_t n, const Tolerance& tol, unsigned threads,
                            const float* bound = nullptr);

}  // namespace ucut
