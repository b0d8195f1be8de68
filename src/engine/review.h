// engine/review.h — the LLM game detector: a model reads a verified candidate's source beside its problem and
// what the harness measured, and names any shortcut (skipped work, special-cased inputs, cached results, work
// handed to a library or hidden elsewhere, an unstated lower precision). Its verdict becomes one flag beside
// the harness's static and runtime detectors (eval/flags.def): `shortcut` raises model_shortcut, which
// disqualifies; `suspicious` raises model_suspicious, a label for a person to read. A review that fails (a
// failed call, a refusal, an answer invalid after the repairs) raises nothing and says why: the model is
// never the only line of defence, and never a reason to lose a measurement.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/model_ledger.h"
#include "eval/flags.h"

namespace ucut::engine {

/// What the reviewer is shown (prompts/detector/review.md's slots).
struct ReviewInput {
  std::string problem;       // what must be computed: operation, shapes, dtypes, tolerance
  std::string source;        // the candidate: a spec, or raw CUDA with its launcher
  std::string measurements;  // verified time, SOL bound, the flags and checks that ran
};

struct ReviewFinding {
  std::string kind;  // skipped_work | special_cased | cached_result | library_handoff | hidden_work |
                     // precision | other
  std::string evidence;
};

struct Review {
  std::string verdict;  // clean | suspicious | shortcut; "" when the review failed
  std::vector<ReviewFinding> findings;
  std::string error;  // why there is no verdict
  int64_t tokens = 0;
  double cost_usd = 0;

  /// The flag the verdict raises: none for clean or a failed review.
  std::vector<FlagId> flags() const;
  /// {verdict, findings, error, tokens}: stored beside the attempt's report.
  nlohmann::json to_json() const;
};

/// Reviews one candidate as call `site` (role "detector"), with up to `repairs` repairs of an invalid answer.
Review review_candidate(ModelLedger& ledger, const CallSite& site, const ReviewInput& input, int repairs = 2);

}  // namespace ucut::engine
