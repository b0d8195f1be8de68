// engine/profile/ncu_run.h — runs a command under Nsight Compute with the metric list (metrics.h) and reads
// its CSV; a missing ncu, a counter-permission error, an unloadable library, a timeout or no matching kernel
// come back as a status and a reason, never as an exception.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/profile/kernel_profile.h"

namespace ucut::profile {

struct NcuOptions {
  std::string ncu_path = "ncu";
  std::string kernel_regex;  // -k regex:<this>; empty profiles every kernel
  int launch_skip = 0;
  int launch_count = 1;
  double timeout_s = 600;              // replay makes several passes per kernel
  std::vector<std::string> extra_env;  // "NAME=value" for the profiled command, e.g. "PROFILING_MODE=1"
  bool from_start = true;  // false: --profile-from-start off, only launches between cudaProfilerStart and Stop
};

/// ncu on PATH, else $CUDA_HOME/bin/ncu, else /usr/local/cuda/bin/ncu; "ncu" when there is none (run_ncu then
/// says it is not installed).
std::string find_ncu();

/// ncu --csv --page raw --print-units base --metrics <metrics_argument()> --clock-control none
///     --cache-control all --target-processes all [--profile-from-start off] [-k regex:<re>]
///     --launch-skip <n> --launch-count <n>
///     <command…>
/// Clocks are left as found, so % of peak and durations match benchmark runs.
std::vector<std::string> ncu_argv(const NcuOptions& o, const std::vector<std::string>& command);

enum class NcuStatus { ok, not_installed, no_permission, library_not_loaded, timed_out, no_kernel, failed };
/// "ok" | "not_installed" | "no_permission" | "library_not_loaded" | "timed_out" | "no_kernel" | "failed"
std::string_view ncu_status_name(NcuStatus s);

struct NcuOutcome {
  NcuStatus status = NcuStatus::failed;
  std::vector<KernelProfile> kernels;  // non-empty exactly when ok
  std::string reason;  // why there are no counters; when ok, a note (e.g. the command's exit code)
  double seconds = 0;

  bool ok() const { return status == NcuStatus::ok; }
};

/// Runs ncu_argv(o, command) with o.timeout_s and reads its standard output.
NcuOutcome run_ncu(const NcuOptions& o, const std::vector<std::string>& command);

/// The index of the kernel with the longest duration among `kernels` (the first when none has one).
size_t longest_kernel(const std::vector<KernelProfile>& kernels);

}  // namespace ucut::profile
