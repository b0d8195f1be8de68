// workflow/local_executor.h — the executor of this machine: compiles on every core, ahead of measurement, and
// measures and profiles on its GPU through the workflows `run` and `profile` use (workflow/measure.h,
// workflow/profile_spec.h). The engine sees it only as an engine::Executor.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <vector>

#include "build/cache.h"
#include "engine/executor.h"
#include "workflow/measure.h"
#include "workflow/profile_spec.h"

namespace ucut::engine {

/// The one mapping from a measure report to an attempt's outcome.
CandidateOutcome outcome_of(const MeasureReport& r);

/// The one mapping from a profile report to a profile outcome.
ProfileOutcome profile_outcome_of(const ProfileReport& r);

class LocalExecutor final : public Executor {
 public:
  explicit LocalExecutor(MeasureOptions options);
  ~LocalExecutor() override;
  void prebuild(const std::vector<std::string>& specs) override;
  CandidateOutcome measure(const std::string& spec, const Problem& problem) override;
  /// Under Nsight Compute (ncu on PATH or in the CUDA toolkit), classified with data/profile_thresholds.json when it
  /// exists, else the prior.
  ProfileOutcome profile(const std::string& spec, const Problem& problem, std::optional<double> measured_ms) override;
  /// The worker's answer in probe mode (no_gpu_reason).
  std::string timing_unavailable() override;

 private:
  MeasureOptions options_;
  profile::Thresholds thresholds_;
  std::unique_ptr<KernelCache> cache_;  // null when no toolchain was found (measure reports why)
  std::counting_semaphore<1024> slots_;
  std::mutex mutex_;
  std::map<std::string, std::shared_future<BuildResult>> builds_;  // by config hash
};

}  // namespace ucut::engine
