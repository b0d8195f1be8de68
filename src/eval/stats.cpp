// eval/stats.cpp — median, mean, spread and percentiles (linear interpolation between order statistics).
#include "eval/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ucut {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace

Stats summarize(std::vector<double> v) {
  Stats s;
  s.n = static_cast<int>(v.size());
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.median = quantile(v, 0.5);
  s.p10 = quantile(v, 0.1);
  s.p90 = quantile(v, 0.9);
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double var = 0;
  for (double x : v) var += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(var / static_cast<double>(v.size() - 1)) : 0;
  return s;
}

}  // namespace ucut
