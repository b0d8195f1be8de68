// workflow/mskb_candidate_eval.h — CUDAMaster's candidate evaluator (engine/cudamaster/evaluator.h) on the
// real harness: a candidate file is written under the work folder and goes the way `bench mskb --impl` takes
// it (workflow/mskb_bench.h measure_mskb_pair): built through the cache for the target with its nvcc options,
// the interface check appended (a signature that is not the task's is refused with mskb-launcher-signature or
// mskb-launcher-missing, before any GPU is needed), scanned for library calls, verified and timed on every
// case beside the naive and vendor launchers, and flagged. The best one is profiled with Nsight Compute on
// the largest case (workflow/mskb_profile.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/cudamaster/evaluator.h"
#include "workflow/mskb_bench.h"
#include "workflow/mskb_profile.h"

namespace ucut {

struct MskbCandidateEvalOptions {
  MskbBenchOptions bench;  // suite, cache, CUTLASS, target (gencode), SOL GPU, worker, jobs, timing knobs
  std::string work_dir;    // candidate files go to <work_dir>/<hash>/<name>.cu
  MskbProfileOptions profile;
};

class MskbCandidateEvaluator : public engine::cudamaster::CandidateEvaluator {
 public:
  /// Throws std::runtime_error naming what is missing: the toolchain (nvcc, CUTLASS) or the naive launcher
  /// file.
  MskbCandidateEvaluator(const mskb::Task& t, mskb::Precision p, MskbCandidateEvalOptions o);
  MskbCandidateEvaluator(const MskbCandidateEvaluator&) = delete;  // gpu_ points into table_
  MskbCandidateEvaluator& operator=(const MskbCandidateEvaluator&) = delete;

  std::string naive_code() const override { return naive_code_; }
  std::string arch() const override;
  std::vector<std::string> default_flags() const override;
  engine::cudamaster::Evaluation evaluate(const engine::cudamaster::Candidate& c) override;
  engine::cudamaster::ProfileResult profile(const engine::cudamaster::Candidate& c) override;

 private:
  /// Where `c` is built from: the suite's naive file, or the candidate written under the work folder.
  mskb::LauncherSource source_of(const engine::cudamaster::Candidate& c) const;

  const mskb::Task& task_;
  mskb::Precision precision_;
  MskbCandidateEvalOptions o_;
  std::optional<KernelCache> cache_;
  std::optional<sol::GpuTable> table_;
  const sol::GpuSpec* gpu_ = nullptr;
  std::string naive_code_;
  std::map<std::string, MskbPairReport> measured_;  // by candidate hash: what profile() knows of a launcher
};

/// The evaluation of `role` in a measured pair report (exposed for tests).
engine::cudamaster::Evaluation evaluation_of(const MskbPairReport& r, mskb::Role role);

}  // namespace ucut
