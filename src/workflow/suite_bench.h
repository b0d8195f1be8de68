// workflow/suite_bench.h — `ucutlass bench kernelbench`: our kernels on a suite, next to PyTorch in the same run.
// Per problem: lower it to a harness problem (suite/lower.h), measure `<impl>/<problem>.ucut` on it
// (workflow/measure.h: verify against the FP64 reference, time, SOL, integrity flags), then time the PyTorch eager
// and torch.compile modules of every measured problem with bench/kernelbench/baseline.py in the same session, and
// score speedups KernelBench's way (suite/score.h). Medians on both sides (cold L2, CUDA events).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/flags.h"
#include "suite/report.h"
#include "suite/score.h"
#include "support/progress.h"
#include "workflow/measure.h"

namespace ucut {

struct SuiteBenchOptions {
  std::string impl_dir;   // <problem>.ucut per implemented problem
  std::string out_dir;    // lowered problems, PyTorch timings and the report land here
  std::string python = "python3";
  std::string torch_script = "bench/kernelbench/baseline.py";
  bool torch = true;      // time PyTorch in this run (without it there are no speedups)
  bool torch_compile = true;  // also torch.compile (inductor), beside eager
  std::optional<double> tolerance;  // replaces every problem's atol = rtol (e.g. 1e-2, KernelBench's original)
  MeasureOptions measure;
};

/// What became of one problem of the suite.
enum class SuiteRowStatus { measured, no_implementation, not_lowerable, failed };

constexpr auto enum_names(SuiteRowStatus) {
  using S = SuiteRowStatus;
  return name_table<S>("suite row status", {{S::measured, "measured"},
                                            {S::no_implementation, "no_implementation"},
                                            {S::not_lowerable, "not_lowerable"},
                                            {S::failed, "failed"}});
}
UCUT_ENUM_JSON(SuiteRowStatus)

struct SuiteBenchRow {
  std::string problem, family;
  std::vector<std::string> weak_check;
  SuiteRowStatus status = SuiteRowStatus::failed;
  std::string detail;  // why not measured, or what failed
  bool correct = false, flagged = false, precision_change = false;
  std::vector<FlagId> flags;
  double ours_ms = 0, pct_sol_tf32 = 0, pct_sol_fp16 = 0, vs_vendor = 0;
  VendorLibrary vendor = VendorLibrary::none;  // the baseline's library
  std::optional<double> eager_ms, compile_ms;
  std::string measured;  // the date of the run that measured the row (a combined report keeps each row's own)
};

struct SuiteBenchReport {
  std::string gpu_name, driver_version, date, impl_dir;
  std::string commit;  // the ucutlass commit that measured the run (support/version.h); "" when not recorded
  std::string command;     // the command line that wrote the report, every option; "" when not recorded
  std::string conditions;  // the tolerance and inputs every problem was verified under, for people
  std::vector<SuiteBenchRow> rows;
  nlohmann::json torch_meta;  // versions and TF32 flags the PyTorch run recorded
  std::string torch_error;    // why there are no PyTorch times, when there are none
  std::vector<std::string>
      parts;  // a combined report: "<date> (<n> problems[, ucutlass <commit>]): <command>"
              // per run its rows came from; a combined run's own runs in its place
  std::vector<std::string> replaced;  // a combined report's rows that newer runs replaced (--newest-wins)
  bool needs_gpu = false;     // nothing could be timed on this machine
  suite::Score eager, eager_filtered;
  // Scores against torch.compile only when it was timed (not with --no-compile): a score of zero would read as
  // "slower than torch.compile on every problem".
  std::optional<suite::Score> compile, compile_filtered;
};

/// `progress`, when given, counts the builds, then the problems measured, then shows PyTorch's timing.
SuiteBenchReport bench_suite(const std::vector<suite::Checked>& problems, const SuiteBenchOptions& opts,
                             Progress* progress = nullptr);
/// The scores of `r`'s rows: against eager always, against torch.compile only when some row has its time.
void score_suite_bench(SuiteBenchReport& r);

nlohmann::json suite_bench_json(const SuiteBenchReport& r);
/// Reads what suite_bench_json wrote (rows and metadata; the scores are recomputed). Throws std::runtime_error
/// naming what is missing.
SuiteBenchReport suite_bench_from_json(const nlohmann::json& j);
/// One report over the rows of several runs, each problem's ratio still measured side by side in its own run:
/// the runs must share the GPU and the verification conditions and name each problem once (throws
/// std::runtime_error naming the conflict), except that a row saying a run had no implementation of a problem
/// gives way to the run that measured it; a failed row stays a failure. `newest_wins`: a problem measured by
/// several runs takes the row of the newest run (by date, whatever its result: a re-measurement, e.g. after a
/// new kernel), and each replaced row is listed in `replaced`. Dates are the rows' own (`measured`): a
/// combined report combined again keeps every original run, its date, commit and command, in `parts`.
SuiteBenchReport combine_suite_bench(const std::vector<SuiteBenchReport>& runs, bool newest_wins = false);
/// A Markdown report (workflow/suite_bench_markdown.cpp): a short header (date, GPU, driver, conditions, the
/// `command` that wrote it), each run's provenance in a collapsed table (when it measured, each PyTorch
/// session: started, versions, TF32 flags, problems and command), one row per problem, the scores.
std::string suite_bench_markdown(const SuiteBenchReport& r, const std::string& command);

}  // namespace ucut
