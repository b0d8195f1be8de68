// suite/score.cpp — see score.h.
#include "suite/score.h"

#include <algorithm>
#include <cmath>

namespace ucut::suite {

Score score(const std::vector<ProblemOutcome>& outcomes, bool filtered) {
  Score s;
  s.fast_p.assign(kFastP.size(), 0);
  double log_sum = 0;
  int with_speedup = 0;
  for (const ProblemOutcome& o : outcomes) {
    ++s.problems;  // filtering never shrinks the denominator: it can only lower the score
    if (!o.correct || !o.speedup || *o.speedup <= 0) {
      s.correct += o.correct && !(filtered && (o.flagged || o.weak));
      continue;
    }
    if (filtered && (o.flagged || o.weak)) {
      // Filtered out: a failure for fast_p, and in the geomean no faster than the baseline (capped at 1x), so
      // that leaving a slow result out cannot raise the mean either.
      log_sum += std::log(std::min(*o.speedup, 1.0));
      ++with_speedup;
      continue;
    }
    ++s.correct;
    log_sum += std::log(*o.speedup);
    ++with_speedup;
    for (size_t i = 0; i < kFastP.size(); ++i)
      if (*o.speedup > kFastP[i]) s.fast_p[i] += 1;
  }
  if (s.problems > 0)
    for (double& f : s.fast_p) f /= s.problems;
  if (with_speedup > 0) s.geomean = std::exp(log_sum / with_speedup);
  return s;
}

}  // namespace ucut::suite
