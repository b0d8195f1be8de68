// workflow/mskb_optimize.h — `ucutlass mskb optimize`: CUDAMaster's four roles (engine/cudamaster/rounds.h)
// on MSKB (task, precision) pairs, each candidate judged by the harness (workflow/mskb_candidate_eval.h),
// everything kept in one SQLite workspace (a problems row per pair, an attempt per candidate, the ledger's
// calls, the stages, the prompt packs), so the same command on the same workspace resumes where a killed run
// stopped. Each pair's best verified launcher is written in MSKB's layout, <out>/<precision>/<name>.cu, which
// `bench mskb --impl <out>` measures again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cudamaster/rounds.h"
#include "llm/config.h"
#include "mskb/task.h"
#include "store/records.h"
#include "workflow/mskb_candidate_eval.h"

namespace ucut {

struct MskbOptimizeOptions {
  std::vector<std::string>
      tasks;  // MSKB task names ("RELU"; a BF16 launcher name "RELU_bf16" is taken as RELU)
  std::vector<mskb::Precision> precisions = {mskb::Precision::fp32};
  std::string workspace;  // the SQLite file (created when missing, resumed otherwise)
  llm::LlmConfig llm;
  engine::cudamaster::Options rounds;
  MskbCandidateEvalOptions eval;  // eval.work_dir defaults to <out_dir>/candidates
  std::string out_dir = "out/cudamaster";
  std::string command;  // recorded with the run
};

struct MskbPairOutcome {
  engine::cudamaster::PairResult result;
  store::LlmUsage usage;  // the pair's model calls by role, every run's
  std::string best_path;  // where its best launcher was written ("" when no round beat the naive launcher)
  double naive_ms = 0;    // the naive launcher's time on the largest case, when timed
};

struct MskbOptimizeReport {
  int64_t run_id = 0;
  std::vector<MskbPairOutcome> pairs;
  bool needs_gpu() const;
  bool failed() const;  // some pair stopped with an error
};

/// Runs or resumes every (task, precision) pair. Throws std::invalid_argument for an unknown task and
/// std::runtime_error for a workspace, toolchain or model-client setup that cannot work (naming it).
MskbOptimizeReport optimize_mskb(const MskbOptimizeOptions& o);

/// The report as text for people: per pair, each round's scheme outcome, the best's P, and the tokens by
/// role.
std::string mskb_optimize_text(const MskbOptimizeReport& r);

}  // namespace ucut
