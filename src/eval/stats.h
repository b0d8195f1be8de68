// eval/stats.h — summary statistics of timing samples.
#pragma once

#include <vector>

namespace ucut {

struct Stats {
  int n = 0;
  double median = 0, mean = 0, stddev = 0, min = 0, max = 0, p10 = 0, p90 = 0;
  double cv() const { return mean > 0 ? stddev / mean : 0; }  // coefficient of variation
};

Stats summarize(std::vector<double> samples);

}  // namespace ucut
