// mskb/score.h — MSKB scores. Per (task, precision) pair, over its size cases i with speedups S_i = t_naive / t_impl:
//   complexity-weighted  P = Σ w_i S_i / Σ w_i,              w_i ∝ T(N_i)        (the paper's, for comparison)
//   log-weighted geometric G = exp(Σ v_i ln S_i / Σ v_i),   v_i = log2 T(N_i)   (no single size dominates)
// A failed case (wrong, crashed, not built, not run) scores S_i = 0, never skipped: P drops by its weight and G is 0.
// Over pairs: the geometric mean of G over the pairs whose G > 0, with the failed pairs counted beside it, and
// CUDAMaster-style success rates: the share of ALL pairs that are correct on every case with P > τ.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ucut::mskb {

struct CaseOutcome {
  double complexity = 0;          // T(N_i)
  bool ok = false;                // correct and timed
  double speedup = 0;             // t_baseline / t_impl, when ok
};

struct PairScore {
  double weighted = 0;            // P
  double log_geometric = 0;       // G (0 when any case failed)
  int cases = 0, failed = 0;
  bool all_correct() const { return cases > 0 && failed == 0; }
};

PairScore score_pair(const std::vector<CaseOutcome>& cases);

inline const std::vector<double> kSuccessTaus = {0, 1, 2, 8};

struct SuiteScore {
  int pairs = 0;                  // the denominator of the success rates
  int failed_pairs = 0;           // some case failed
  std::optional<double> geomean;  // of G over pairs with G > 0
  std::optional<double> geomean_weighted;  // of P over pairs with P > 0
  std::vector<double> success;    // one per kSuccessTaus: all cases correct and P > τ
};

SuiteScore score_suite(const std::vector<PairScore>& pairs);

}  // namespace ucut::mskb
