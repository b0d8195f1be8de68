// eval/reduction.h — the reference of a reduction stage (`row_sum`, `row_max`, `col_sum`, `col_max`): the chain's
// value x at that stage, captured for every element like an aux_store output, reduced over n (row_*: one value
// per m) or over m (col_*: one per n), per batch, in double on the host, with the scales its tolerance needs
// (eval/compare.h compare_reduction).
#pragma once

#include <cstdint>
#include <vector>

#include "eval/compare.h"
#include "ir/epilogue_ops.h"

namespace ucut {

struct ReducedReference {
  bool max = false;
  int64_t count = 0;            // values reduced into each element: n (Axis::row) or m (Axis::col)
  std::vector<float> value;     // [L, M] (Axis::row) or [L, N] (Axis::col): Σ or max of x, in double
  std::vector<double> abs_sum;  // Σ|x| over each element's reduced values (sums; empty for max)
  std::vector<float> bound;     // Σ (sums) or max of `bound` over them (empty without a bound)
  ReductionScale scale() const { return {max, count, abs_sum.empty() ? nullptr : abs_sum.data(), bound.empty() ? nullptr : bound.data()}; }
};

/// Reduces x, a row-major [batch, m, n] float array, over n (axis row) or m (axis col), summing or taking the
/// max in double; a non-finite x makes its reduced element non-finite (NaN unless a max meets +inf), so the
/// comparison skips it as it skips an overflowed reference element. `bound` (null or [batch, m, n]) is each
/// element's accumulation bound Σ_k |a||b|, reduced alongside (summed for sums, max for maxima).
ReducedReference reduce_reference(const float* x, const float* bound, int64_t m, int64_t n, int64_t batch, Axis axis,
                                  bool max);

/// A reduction output `got` (the kernel's vector as float) against its reference (compare_reduction).
Comparison compare_reduced(const std::vector<float>& got, const ReducedReference& ref, const Tolerance& tol);

/// True when every element of `got` is bit-identical while `ref` is not constant (an output the kernel filled
/// with one value). Any output: D, an aux_store tensor or a reduction vector.
bool constant_while_reference_varies(const std::vector<float>& got, const std::vector<float>& ref);

}  // namespace ucut
