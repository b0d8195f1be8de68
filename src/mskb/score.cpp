// mskb/score.cpp
#include "mskb/score.h"

#include <cmath>

namespace ucut::mskb {

PairScore score_pair(const std::vector<CaseOutcome>& cases) {
  PairScore s;
  double w = 0, ws = 0, v = 0, vlog = 0;
  for (const CaseOutcome& c : cases) {
    ++s.cases;
    if (!c.ok || !(c.speedup > 0)) ++s.failed;
    double speedup = c.ok && c.speedup > 0 ? c.speedup : 0;
    w += c.complexity;
    ws += c.complexity * speedup;
    double vi = std::max(std::log2(std::max(c.complexity, 2.0)), 1.0);
    v += vi;
    if (speedup > 0) vlog += vi * std::log(speedup);
  }
  s.weighted = w > 0 ? ws / w : 0;
  s.log_geometric = s.cases > 0 && s.failed == 0 && v > 0 ? std::exp(vlog / v) : 0;
  return s;
}

SuiteScore score_suite(const std::vector<PairScore>& pairs) {
  SuiteScore s;
  s.pairs = static_cast<int>(pairs.size());
  double lg = 0, lw = 0;
  int ng = 0, nw = 0;
  s.success.assign(kSuccessTaus.size(), 0);
  for (const PairScore& p : pairs) {
    if (!p.all_correct()) ++s.failed_pairs;
    if (p.log_geometric > 0) {
      lg += std::log(p.log_geometric);
      ++ng;
    }
    if (p.weighted > 0) {
      lw += std::log(p.weighted);
      ++nw;
    }
    for (size_t t = 0; t < kSuccessTaus.size(); ++t)
      if (p.all_correct() && p.weighted > kSuccessTaus[t]) s.success[t] += 1;
  }
  if (ng) s.geomean = std::exp(lg / ng);
  if (nw) s.geomean_weighted = std::exp(lw / nw);
  for (double& x : s.success) x = s.pairs ? x / s.pairs : 0;
  return s;
}

}  // namespace ucut::mskb
