// engine/mantis/triage.h — MANTIS's Triage stage: rank nominated hypotheses by return on investment,
// ROI(h) = Ŝ^(1 + max(0, log10(g/5))) / (R̂_impl · R̂_perf), where Ŝ is the predicted speedup, g the current gap to
// the TF32 speed of light and the R̂ the implementation and performance risks (≥ 1). Far from SOL (g ≫ 5) the
// exponent grows, so bold hypotheses win; near SOL (g ≤ 5) ROI is the plain risk-discounted speedup.
#pragma once

#include <vector>

#include "store/records.h"

namespace ucut::mantis {

/// The exponent 1 + max(0, log10(g/5)); g ≤ 0 (unknown gap, or SOL switched off) gives 1.
double roi_exponent(double gap);

double roi(double predicted_speedup, double gap, double risk_impl, double risk_perf);

/// Fills each hypothesis's `roi` and returns them best first (ties keep nomination order). With `ranked` false
/// (the no-Triage ablation) the ROI is still recorded but the nomination order is kept.
std::vector<store::HypothesisRow> triage(std::vector<store::HypothesisRow> hypotheses, double gap, bool ranked = true);

}  // namespace ucut::mantis
