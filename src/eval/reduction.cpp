// eval/reduction.cpp — reduction references, in double.
#include "eval/reduction.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace ucut {

ReducedReference reduce_reference(const float* x, const float* bound, int64_t m, int64_t n, int64_t batch, Axis axis,
                                  bool max) {
  bool row = axis == Axis::row;
  int64_t per_batch = row ? m : n;
  ReducedReference r;
  r.max = max;
  r.count = row ? n : m;
  size_t len = static_cast<size_t>(batch * per_batch);
  const double init = max ? -std::numeric_limits<double>::infinity() : 0.0;
  std::vector<double> acc(len, init), abs_sum(max ? 0 : len, 0.0), acc_bound(bound ? len : 0, 0.0);
  std::vector<bool> nan(len, false);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t at = (b * m + i) * n + j;
        size_t o = static_cast<size_t>(b * per_batch + (row ? i : j));
        double v = x[at];
        if (std::isnan(v)) nan[o] = true;
        if (max) {
          acc[o] = std::max(acc[o], v);
          if (bound) acc_bound[o] = std::max(acc_bound[o], static_cast<double>(bound[at]));
        } else {
          acc[o] += v;
          abs_sum[o] += std::fabs(v);
          if (bound) acc_bound[o] += bound[at];
        }
      }
  r.value.resize(len);
  for (size_t o = 0; o < len; ++o) r.value[o] = nan[o] ? NAN : static_cast<float>(acc[o]);
  r.abs_sum = std::move(abs_sum);
  r.bound.assign(acc_bound.begin(), acc_bound.end());
  return r;
}

Comparison compare_reduced(const std::vector<float>& got, const ReducedReference& ref, const Tolerance& tol) {
  return compare_reduction(got.data(), ref.value.data(), std::min(got.size(), ref.value.size()), tol, ref.scale());
}

bool constant_while_reference_varies(const std::vector<float>& got, const std::vector<float>& ref) {
  if (got.size() < 2) return false;
  bool constant = std::all_of(got.begin(), got.end(), [&](float v) { return std::memcmp(&v, &got[0], sizeof v) == 0; });
  bool ref_constant = std::all_of(ref.begin(), ref.end(), [&](float v) { return v == ref[0]; });
  return constant && !ref_constant;
}

}  // namespace ucut
