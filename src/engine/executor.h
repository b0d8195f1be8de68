// engine/executor.h — where the engine's candidates are compiled, measured and profiled. The engine only sees this
// interface, so multi-GPU workers or a cluster scheduler (Slurm) can stand behind it without touching the engine.
// engine/recorded_executor.h replays a recorded run; the executor that measures on this machine lives on the
// workflow floor above (workflow/local_executor.h), beside the measure and profile workflows it runs.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/flags.h"
#include "problem/problem.h"
#include "sol/bottleneck.h"
#include "store/records.h"

namespace ucut::engine {

/// What measuring one spec on one problem gave, in the terms of an attempt.
struct CandidateOutcome {
  store::AttemptStatus status = store::AttemptStatus::pending;
  std::string config_hash;
  bool correct = false;
  std::optional<double> time_ms;  // the timed shape's median (CUDA events), when measured
  std::vector<FlagId> flags;
  bool flagged = false;           // a disqualifying integrity flag
  bool precision_change = false;
  std::string error;
  nlohmann::json report;          // report_json of the measure report
  double build_seconds = 0, run_seconds = 0;
  bool needs_gpu = false;         // nothing could be timed here: no GPU (the attempt stays pending)
  std::string machine;            // the GPU and driver it ran on
};

/// What profiling one spec on one problem gave (workflow/profile_spec.h), in the terms Analyze uses.
struct ProfileOutcome {
  bool counters = false;  // Nsight Compute counters were read: `bottleneck` is the classifier's
  sol::Bottleneck bottleneck = sol::Bottleneck::unknown;
  std::string reason;     // the classification's reason, or why there are no counters
  nlohmann::json report;  // profile_report_json: the filtered profile and how it was made
  double seconds = 0;     // spent profiling (the ncu run)
};

/// An outcome into the attempt that stores it, and a stored attempt back into its outcome (a recorded run
/// replayed): the two directions of one field list, kept side by side.
void store_outcome(const CandidateOutcome& o, store::AttemptRow& a);
CandidateOutcome stored_outcome(const store::AttemptRow& a);

/// The config hash `spec` compiles to (its build-cache and workspace identity); "" when it does not check.
std::string spec_config_hash(const std::string& spec);

/// The sha256 of the code `spec` emits today; "" when it does not check. An attempt records it when measured, so a
/// later run can tell a measurement of other code (an emitter changed since) from one of this code.
std::string spec_code_hash(const std::string& spec);

class Executor {
 public:
  virtual ~Executor() = default;
  /// Starts compiling `specs` (into the build cache, in parallel) and returns at once.
  virtual void prebuild(const std::vector<std::string>& specs) = 0;
  /// Compiles (or waits for the prebuild of) `spec`, then verifies and times it on `problem`.
  virtual CandidateOutcome measure(const std::string& spec, const Problem& problem) = 0;
  /// Profiles `spec` on `problem`'s first shape, whose timed median `measured_ms` gives the SOL %. An executor that
  /// cannot profile answers without counters and says so (this default).
  virtual ProfileOutcome profile(const std::string& spec, const Problem& problem, std::optional<double> measured_ms);
  /// Why nothing can be timed (no usable GPU), asked once before a run compiles anything; "" when timing can
  /// be tried. This default answers "": such an executor says so per attempt (CandidateOutcome::needs_gpu).
  virtual std::string timing_unavailable();
};

}  // namespace ucut::engine
