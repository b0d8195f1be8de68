// engine/executor.h — where the engine's candidates are compiled and measured. The engine only sees this
// interface, so multi-GPU workers or a cluster scheduler (Slurm) can stand behind it later without touching the
// engine. LocalExecutor compiles on every core of this machine, ahead of measurement, and measures on its GPU.
#pragma once

#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>
#include <vector>

#include "build/cache.h"
#include "driver/measure.h"
#include "store/records.h"

namespace ucut::engine {

/// What measuring one spec on one problem gave, in the terms of an attempt.
struct CandidateOutcome {
  store::AttemptStatus status = store::AttemptStatus::pending;
  std::string config_hash;
  bool correct = false;
  std::optional<double> time_ms;  // the timed shape's median (CUDA events), when measured
  std::vector<std::string> flags;
  bool flagged = false;           // a disqualifying integrity flag
  bool precision_change = false;
  std::string error;
  nlohmann::json report;          // report_json of the measure report
  double build_seconds = 0, run_seconds = 0;
  bool needs_gpu = false;         // nothing could be timed here: no GPU (the attempt stays pending)
  std::string machine;            // the GPU and driver it ran on
};

/// The one mapping from a measure report to an attempt's outcome.
CandidateOutcome outcome_of(const MeasureReport& r);

/// The config hash `spec` compiles to (its build-cache and workspace identity); "" when it does not check.
std::string spec_config_hash(const std::string& spec);

class Executor {
 public:
  virtual ~Executor() = default;
  /// Starts compiling `specs` (into the build cache, in parallel) and returns at once.
  virtual void prebuild(const std::vector<std::string>& specs) = 0;
  /// Compiles (or waits for the prebuild of) `spec`, then verifies and times it on `problem`.
  virtual CandidateOutcome measure(const std::string& spec, const Problem& problem) = 0;
};

class LocalExecutor final : public Executor {
 public:
  explicit LocalExecutor(MeasureOptions options);
  ~LocalExecutor() override;
  void prebuild(const std::vector<std::string>& specs) override;
  CandidateOutcome measure(const std::string& spec, const Problem& problem) override;

 private:
  MeasureOptions options_;
  std::unique_ptr<KernelCache> cache_;  // null when no toolchain was found (measure reports why)
  std::counting_semaphore<1024> slots_;
  std::mutex mutex_;
  std::map<std::string, std::shared_future<BuildResult>> builds_;  // by config hash
};

}  // namespace ucut::engine
