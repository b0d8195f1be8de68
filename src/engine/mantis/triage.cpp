// engine/mantis/triage.cpp
#include "engine/mantis/triage.h"

#include <algorithm>
#include <cmath>

namespace ucut::mantis {

double roi_exponent(double gap) { return gap > 0 ? 1 + std::max(0.0, std::log10(gap / 5)) : 1; }

double roi(double predicted_speedup, double gap, double risk_impl, double risk_perf) {
  double risk = std::max(1.0, risk_impl) * std::max(1.0, risk_perf);
  return std::pow(std::max(predicted_speedup, 0.0), roi_exponent(gap)) / risk;
}

std::vector<store::HypothesisRow> triage(std::vector<store::HypothesisRow> hypotheses, double gap, bool ranked) {
  for (store::HypothesisRow& h : hypotheses) h.roi = roi(h.predicted_speedup, gap, h.risk_impl, h.risk_perf);
  if (ranked)
    std::stable_sort(hypotheses.begin(), hypotheses.end(),
                     [](const store::HypothesisRow& a, const store::HypothesisRow& b) { return a.roi > b.roi; });
  return hypotheses;
}

}  // namespace ucut::mantis
