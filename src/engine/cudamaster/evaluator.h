// engine/cudamaster/evaluator.h — what CUDAMaster's rounds (engine/cudamaster/rounds.h) ask of the harness,
// behind an interface: build a launcher file with the chosen nvcc options, check its interface, verify and
// time it on every size case of the (task, precision) pair, raise the integrity flags, and profile the best
// one. The real one is workflow/mskb_candidate_eval.h (the path `bench mskb` takes); tests use a scripted
// fake, so the rounds run without a GPU.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/profile/filter.h"
#include "engine/profile/kernel_profile.h"
#include "eval/flags.h"
#include "support/enum_json.h"

namespace ucut::engine::cudamaster {

/// One launcher file to evaluate.
struct Candidate {
  std::string code;                // the whole .cu
  std::vector<std::string> flags;  // nvcc options after the harness's own (validated: compiler_flags.h)
  bool naive = false;  // the suite's naive launcher (its function is <name>, not <name>_optimized)
};

/// How far a candidate got: the first check it failed, or ok.
enum class Verdict {
  ok,         // built, verified on every case, timed, no disqualifying flag
  interface,  // the launcher's signature is not the task's (mskb::kRuleLauncherSignature / Missing)
  build,      // nvcc rejected it
  run,        // it crashed, hung or raised a CUDA error on some case
  verify,     // a wrong result on some case
  integrity,  // verified and timed, but a disqualifying integrity flag was raised
  needs_gpu,  // built, but no GPU here to verify and time it
};

constexpr auto enum_names(Verdict) {
  using V = Verdict;
  return name_table<V>("candidate verdict", {{V::ok, "ok"},
                                             {V::interface, "interface"},
                                             {V::build, "build"},
                                             {V::run, "run"},
                                             {V::verify, "verify"},
                                             {V::integrity, "integrity"},
                                             {V::needs_gpu, "needs_gpu"}});
}
UCUT_ENUM_JSON(Verdict)

struct Evaluation {
  Verdict verdict = Verdict::build;
  /// What went wrong, as Debug sees it: the build log's first errors, the failing cases with their errors or
  /// mismatches, the flags with their evidence; "" when ok.
  std::string error;
  std::optional<double> score;    // P: the complexity-weighted mean speedup over the naive launcher (ok only)
  std::optional<double> time_ms;  // the largest case's GPU busy time (ok and integrity)
  std::vector<FlagId> flags;      // every flag raised, on any case
  std::string gpu;                // the GPU that measured it ("" when none did)
  std::string report_json;        // the harness's whole report of the pair (stored with the attempt)
  std::string model_review_json;  // the LLM game detector's review (engine/review.h), "" when none ran
  double build_seconds = 0, run_seconds = 0;
};

/// A profile of one launcher on the pair's largest case: Nsight Compute's counters when they could be read,
/// else why not.
struct ProfileResult {
  std::string kernel;                              // the profiled (longest) kernel's name
  std::optional<profile::KernelProfile> counters;  // every metric read (the `full` view)
  profile::FilteredProfile filtered;               // classified and filtered, or degraded with the reason
  double seconds = 0;
};

class CandidateEvaluator {
 public:
  virtual ~CandidateEvaluator() = default;

  /// The suite's naive launcher of the pair, as written: where the rounds start.
  virtual std::string naive_code() const = 0;
  /// The target, e.g. "sm_90a" (the Compiler's prompt).
  virtual std::string arch() const = 0;
  /// The harness's own nvcc options (the Compiler's prompt; a proposed option among them is redundant).
  virtual std::vector<std::string> default_flags() const = 0;
  /// Builds, checks, verifies, times and flags `c`. Never throws for a candidate's fault.
  virtual Evaluation evaluate(const Candidate& c) = 0;
  /// Profiles `c`, which evaluated ok.
  virtual ProfileResult profile(const Candidate& c) = 0;
};

}  // namespace ucut::engine::cudamaster
