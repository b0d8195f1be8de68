// engine/cudamaster/rounds.h — CUDAMaster (arXiv 2603.07169, Algorithm 1) on one MSKB (task, precision) pair:
// from the suite's naive launcher, measured by the harness, R rounds of
//   Planner (the best verified file, its profile, the earlier schemes and their outcomes) → a scheme
//   Coder → the .cu, Compiler → its nvcc options, the harness → built, interface-checked, verified, timed,
//   flagged on failure, up to D times: Debug (the failing file and the harness's report) → a diagnosis →
//   Coder → Compiler → the harness again
// (with Options::detector, a model then reviews each verified candidate's source for shortcuts), and the best
// replaced only by a candidate that is verified, unflagged and faster (P, the
// complexity-weighted mean speedup over the naive launcher). Every model call goes through the ledger under
// CallSite{run that began the pair, pair, round, role}; every candidate is an attempt; the profile, scheme,
// each try and each round's outcome are stages. A run killed at any point resumes where it stopped: finished
// rounds are read back, the interrupted one is redone with its calls answered from the ledger and its
// finished candidates from their attempts, and only a candidate killed mid-measurement is measured again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/cudamaster/evaluator.h"
#include "engine/cudamaster/history.h"
#include "engine/cudamaster/profile_view.h"
#include "engine/model_ledger.h"
#include "mskb/task.h"
#include "store/workspace.h"

namespace ucut::engine::cudamaster {

struct Options {
  int rounds = 3;       // R
  int debug_tries = 3;  // D: Debug calls per round at most
  ProfileView profile_view = ProfileView::filtered;
  int json_repairs = 2;  // the Compiler's invalid answers sent back at most this often
  /// The LLM game detector (engine/review.h) reviews every candidate the harness verified: `shortcut` makes
  /// it an integrity failure (Debug sees the findings), `suspicious` a label; the naive launcher is not
  /// reviewed.
  bool detector = false;
};

struct Pair {
  const mskb::Task* task = nullptr;
  mskb::Precision precision = mskb::Precision::fp32;
  std::string problem_id;  // its problems row, which the caller has upserted
  int64_t run_id = 0;      // this process's run
};

struct PairResult {
  std::string problem_id;
  int64_t owner_run = 0;  // the run that began the pair: its calls and stages are keyed under it
  std::optional<int64_t> best_attempt;
  std::optional<double> best_score;  // P of the best (1 for the naive launcher); none when it was not timed
  std::string best_code;
  bool improved = false;            // a round's candidate replaced the naive launcher
  std::vector<RoundRecord> rounds;  // the rounds finished, in order
  /// Stopped because a launcher built but nothing here can verify or time it: why (the worker's words).
  std::string needs_gpu;
  /// Stopped for another reason (the naive launcher fails, a model call failed): a resumed run goes on.
  std::string error;
};

/// Runs (or resumes) CUDAMaster on `pair`. Throws only for broken invariants and workspace errors.
PairResult optimize_pair(store::Workspace& ws, ModelLedger& ledger, CandidateEvaluator& evaluator,
                         const Pair& pair, const Options& options);

}  // namespace ucut::engine::cudamaster
