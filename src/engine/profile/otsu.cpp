// engine/profile/otsu.cpp — Otsu's threshold by an exact scan over the sorted sample.
#include "engine/profile/otsu.h"

#include <algorithm>
#include <cmath>

namespace ucut::profile {
namespace {

std::vector<double> sorted_finite(std::vector<double> values) {
  std::erase_if(values, [](double v) { return !std::isfinite(v); });
  std::sort(values.begin(), values.end());
  return values;
}

}  // namespace

int distinct_count(std::vector<double> values) {
  values = sorted_finite(std::move(values));
  return static_cast<int>(std::unique(values.begin(), values.end()) - values.begin());
}

std::optional<double> otsu_threshold(std::vector<double> values) {
  values = sorted_finite(std::move(values));
  const double n = static_cast<double>(values.size());
  double total = 0;
  for (double v : values) total += v;

  std::optional<double> best_threshold;
  double best_variance = -1;
  double below_sum = 0;
  // Cut between values[i] and values[i + 1] wherever they differ: the lower class is values[0..i].
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    below_sum += values[i];
    if (values[i] == values[i + 1]) continue;
    const double n0 = static_cast<double>(i + 1), n1 = n - n0;
    const double mean0 = below_sum / n0, mean1 = (total - below_sum) / n1;
    const double variance = (n0 / n) * (n1 / n) * (mean0 - mean1) * (mean0 - mean1);
    if (variance > best_variance) {
      best_variance = variance;
      best_threshold = (values[i] + values[i + 1]) / 2;
    }
  }
  return best_threshold;
}

}  // namespace ucut::profile
