// workflow/profile_spec.h — `ucutlass profile`: the spec checked and built as for `run` (the same build cache),
// then the worker's profile mode run under Nsight Compute; the counters classified with the thresholds,
// filtered to the metrics that matter for the class, and put beside the analytic SOL %. Without counters (no
// ncu, no permission, no GPU, a timeout, no kernel profiled) the report degrades to timing and SOL and says
// why: nothing here throws for those.
//
// Which launches are profiled: the worker (request mode "profile") makes the inputs and prepares the run,
// waits for the device, then launches the candidate once between cudaProfilerStart and cudaProfilerStop; ncu
// runs with
// --profile-from-start off. So inputs, references, verification, warm-up, timing and cuBLAS/cuDNN kernels are
// never profiled, whatever their names: no kernel-name regex or launch count to keep in step with the worker.
// Every kernel of that one launch is profiled (a pipeline, or helper kernels such as reduction resets, launch
// several); the longest is the one classified.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/profile/filter.h"
#include "engine/profile/ncu_run.h"
#include "engine/profile/thresholds.h"
#include "support/source.h"
#include "workflow/measure.h"

namespace ucut {

/// At most this many kernels of the one launch are profiled.
inline constexpr int kMaxProfiledKernels = 64;

/// ncu's options for a worker's profile mode: only the launches between its cudaProfilerStart and Stop, at
/// most kMaxProfiledKernels of them, within `timeout_s`.
inline profile::NcuOptions worker_ncu_options(const std::string& ncu, double timeout_s) {
  profile::NcuOptions o;
  o.ncu_path = ncu;
  o.from_start = false;
  o.launch_count = kMaxProfiledKernels;
  o.timeout_s = timeout_s;
  return o;
}

struct ProfileOptions {
  MeasureOptions measure;  // build cache, CUTLASS, worker, the GPU for SOL until the worker names one, seed
  std::string ncu = profile::find_ncu();
  double timeout_s = 600;  // for the whole ncu run (replay makes several passes per kernel)
  profile::Thresholds thresholds = profile::prior_thresholds();
  std::optional<double> measured_ms;  // the first shape's timed median, when known: t_measured for SOL %
};

/// Where the SOL percentage's measured time came from.
enum class MeasuredFrom {
  none,    // no measured time to compare the bound with
  timing,  // the timed median (ProfileOptions::measured_ms)
  ncu,     // the profiled launch's kernel durations
};

constexpr auto enum_names(MeasuredFrom) {
  using M = MeasuredFrom;
  return name_table<M>("measured time source", {{M::none, ""}, {M::timing, "timing"}, {M::ncu, "ncu"}});
}
UCUT_ENUM_JSON(MeasuredFrom)

struct ProfileReport {
  std::string kernel_name, problem_name, config_hash;
  MeasureStep stopped_at = MeasureStep::none;  // none when profiling was tried; else check, problem or build
  std::string message;     // why it stopped, for people
  BuildResult build;
  std::string shape;     // the profiled shape (the problem's first)
  std::string gpu_name;  // as the worker saw it, when it ran
  profile::Thresholds thresholds;
  profile::NcuStatus ncu_status = profile::NcuStatus::failed;
  std::vector<profile::KernelProfile>
      kernels;                        // every kernel of the launch, in launch order (empty: no counters)
  size_t classified = 0;              // index in `kernels` of the longest, the one classified
  profile::FilteredProfile filtered;  // classified, or degraded with the reason
  double t_sol_ms = 0;          // the first shape's bound at the kernel's precision (0 without SOL data)
  std::optional<sol::BoundKind> bound;  // the side of the ridge that bound is on (none without SOL data)
  MeasuredFrom t_measured_from = MeasuredFrom::none;
  double seconds = 0;           // the ncu run

  bool counters() const { return !kernels.empty(); }
};

/// A kernel name for people: template arguments nested inside the first level elided, e.g.
/// "void cutlass::device_kernel<cutlass::GemmUniversal<…>>(Params)" (CUTLASS names run to thousands of characters).
std::string short_kernel_name(std::string_view name);

/// Checks, builds and profiles `spec` on `problem`'s first shape.
ProfileReport profile_spec(const SourceFile& spec, const Problem& problem, const ProfileOptions& opts);

/// The filtered profile (profile::render_json) with the build, the thresholds' source, the ncu status, the
/// SOL basis and every profiled kernel's name and duration; with `all_metrics`, every metric of the
/// classified kernel.
nlohmann::json profile_report_json(const ProfileReport& r, bool all_metrics);
/// The filtered profile as text (profile::render_text) under a header naming the kernel, shape, GPU, build
/// and thresholds; with `all_metrics`, every metric of the classified kernel after it.
std::string profile_report_text(const ProfileReport& r, bool all_metrics);

}  // namespace ucut
