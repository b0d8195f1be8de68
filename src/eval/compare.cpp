// eval/compare.cpp — elementwise comparison with tolerances.
#include "eval/compare.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace ucut {

namespace {

/// The comparison loop: `allowed(i, r)` gives element i's scale (what rtol multiplies, and what a relative error
/// is relative to) and its absolute slack; it passes when |x - ref| <= slack + rtol·scale.
struct Allowance {
  double scale, slack;
};

template <class Allowed>
Comparison compare_with(const float* x, const float* ref, size_t n, double rtol, Allowed allowed) {
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
    Allowance a = allowed(i, r);
    if (e > a.slack + rtol * a.scale) ++c.mismatches;
    c.max_abs_err = std::fmax(c.max_abs_err, e);
    double rel = e / std::fmax(a.scale, a.slack);
    if (rel > c.max_rel_err || c.worst_index < 0) {
      c.max_rel_err = rel;
      c.worst_index = static_cast<int64_t>(i);
    }
  }
  c.err2 = err2;
  c.ref2 = ref2;
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

}  // namespace

Comparison compare(const float* x, const float* ref, size_t n, const Tolerance& tol, const float* bound) {
  return compare_with(x, ref, n, tol.rtol, [&](size_t i, double r) {
    return Allowance{std::fabs(r), tol.atol + (bound ? tol.acc_eps * bound[i] : 0.0)};
  });
}

Comparison compare_reduction(const float* x, const float* ref, size_t n, const Tolerance& tol, const ReductionScale& s) {
  if (s.max)
    return compare_with(x, ref, n, tol.rtol, [&](size_t i, double r) {
      return Allowance{std::fabs(r), tol.atol + (s.bound ? tol.acc_eps * s.bound[i] : 0.0)};
    });
  double count = static_cast<double>(std::max<int64_t>(s.count, 1));
  double sum_eps = accumulation_eps(s.count);
  return compare_with(x, ref, n, tol.rtol, [&](size_t i, double) {
    double magnitude = s.abs_sum ? s.abs_sum[i] : 0.0;
    return Allowance{magnitude, tol.atol * count + sum_eps * magnitude + (s.bound ? tol.acc_eps * s.bound[i] : 0.0)};
  });
}

Comparison merge(const Comparison& a, const Comparison& b) {
  Comparison c = a.max_rel_err >= b.max_rel_err ? a : b;  // the worse element, with its index and values
  c.checked = a.checked + b.checked;
  c.mismatches = a.mismatches + b.mismatches;
  c.nonfinite = a.nonfinite + b.nonfinite;
  c.max_abs_err = std::fmax(a.max_abs_err, b.max_abs_err);
  c.err2 = a.err2 + b.err2;
  c.ref2 = a.ref2 + b.ref2;
  c.rel_l2 = c.nonfinite ? INFINITY : (c.ref2 > 0 ? std::sqrt(c.err2 / c.ref2) : std::sqrt(c.err2));
  c.pass = a.pass && b.pass;
  return c;
}

Comparison compare_parallel(const float* x, const float* ref, size_t n, const Tolerance& tol, unsigned threads,
                            const float* bound) {
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(n / 65536 + 1)));
  std::vector<Comparison> parts(threads);
  std::vector<std::thread> pool;
  size_t per = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      size_t lo = std::min(n, t * per), hi = std::min(n, lo + per);
      parts[t] = compare(x + lo, ref + lo, hi - lo, tol, bound ? bound + lo : nullptr);
      if (parts[t].worst_index >= 0) parts[t].worst_index += static_cast<int64_t>(lo);
      parts[t].pass = parts[t].mismatches == 0;  // an empty chunk is not a failure of the whole
    });
  for (std::thread& th : pool) th.join();
  Comparison c = parts[0];
  for (unsigned t = 1; t < threads; ++t) c = merge(c, parts[t]);
  c.pass = n > 0 && c.mismatches == 0;
  return c;
}

}  // namespace ucut
