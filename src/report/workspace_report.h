// report/workspace_report.h — what `ucutlass report` shows, computed from an optimization workspace
// (store/workspace.h): per-problem results, suite statistics with and without integrity filtering, the
// policy grid replay (engine/sched/pareto.h) and where the time went. Pure computation; html.h, markdown.h
// and json.h render it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/sched/pareto.h"
#include "sol/bottleneck.h"
#include "sol/gpu_table.h"
#include "store/workspace.h"

namespace ucut::report {

/// The p values of the fast_p table.
inline const std::vector<double> kFastP = {0, 1, 1.5, 2, 5};
/// The (eps, window) grid the recorded attempts are replayed over.
inline const std::vector<double> kGridEps = {0.05, 0.1, 0.25, 0.5, 1, 2};
inline const std::vector<int> kGridWindows = {2, 4, 8, 16};

/// The bottleneck class one Analyze stage reported.
struct Bottleneck {
  int iteration = 0;
  sol::Bottleneck cls = sol::Bottleneck::unknown;
  std::optional<sol::BottleneckSource> source;  // none: the stage did not say
};

struct ProblemReport {
  std::string id, family, shape_class;
  // Attempts: failed = finished but not measured-and-correct; flagged = an integrity flag disqualified it.
  int attempts = 0, measured = 0, failed = 0, flagged = 0, pending = 0;
  std::optional<double> seed_ms;      // the seed attempt, when it counts
  std::optional<double> best_ms;      // the fastest attempt that counts (store::AttemptRow::counts)
  std::optional<double> best_any_ms;  // the fastest measured correct one, flagged included (a naive harness)
  std::optional<double> baseline_ms;
  std::string baseline_kind;          // where the baseline comes from (store::ProblemRow::baseline_kind)
  std::optional<double> speedup;      // baseline / best
  std::optional<double> speedup_any;  // baseline / best_any
  double sol_tf32_ms = 0, sol_fp16_ms = 0;
  std::optional<double> gap;          // best / sol_tf32
  std::optional<double> sol_pct;      // 100 · sol_tf32 / best
  std::optional<double> intensity;    // flops / min_bytes (FLOP/byte)
  std::optional<double> achieved_tflops;
  std::optional<Bottleneck> first, last;  // the first and the last analyzed iteration
  double build_seconds = 0, run_seconds = 0, profile_seconds = 0;
};

/// One point of a curve.
struct CurvePoint {
  double x = 0, y = 0;
};

struct FastP {
  double p = 0;
  double filtered = 0, unfiltered = 0;  // shares of problems with a baseline
};

struct RunReport {
  int64_t id = 0;
  std::string command, started, finished;  // finished: "unfinished" while it has no end time
  store::LlmRoleUsage model_calls;         // the run's language-model calls, all roles (store/workspace.h)
};

/// The GPU whose roofs the roofline draws.
struct RooflineGpu {
  std::string key, name;
  double tf32_tflops = 0, fp16_tflops = 0, bandwidth_tbs = 0;
};

struct TimeShare {
  double build_seconds = 0, run_seconds = 0, profile_seconds = 0;
  int kernels_built = 0;          // attempts with build_seconds > 0
  double kernels_per_minute = 0;  // kernels_built per minute of build_seconds (one nvcc's rate); 0 without any
  // The loop's rate: kernels built by the runs that finished, per minute of those runs' wall-clock (parallel
  // builds overlap, so this is what a user waits for; a run killed before its end has no wall-clock and is left out).
  int finished_runs = 0, wall_kernels = 0;
  double wall_seconds = 0, kernels_per_wall_minute = 0;
  double build_pct = 0, run_pct = 0, profile_pct = 0;
};

struct WorkspaceReport {
  std::string workspace;
  std::vector<RunReport> runs;
  std::vector<ProblemReport> problems;  // in workspace order
  std::vector<std::string> no_baseline;  // left out of every speedup statistic
  std::vector<std::string> measured_on;  // "GPU (driver ...)" of the measured attempts, from their stored reports
  int scored = 0;                        // problems with a baseline
  // Geomean speedup over scored problems; a problem without a counting attempt counts as 1 (the baseline).
  double geomean_filtered = 1, geomean_unfiltered = 1;
  double inflation = 1;  // unfiltered / filtered
  std::vector<FastP> fast_p;                        // at kFastP
  std::vector<CurvePoint> curve_filtered, curve_unfiltered;  // fast_p over p
  std::vector<CurvePoint> attempt_fast_p;                    // k → fast_1 within the first k attempts
  int budget = 0;                                            // the most finished attempts of a problem
  std::optional<sched::GridResult> grid;                     // absent without problems or attempts
  TimeShare time;
  std::optional<RooflineGpu> gpu;
};

/// The roofs of `gpu` (its TF32 and FP16 tensor peaks, DRAM bandwidth).
RooflineGpu roofline_gpu(const sol::GpuSpec& gpu);

/// Reads everything from `ws`. Attempts are taken in id order; pending ones count as attempts but not in the
/// replay or attempt-fast_p. Throws store::WorkspaceError on a read failure.
WorkspaceReport build_report(store::Workspace& ws, std::optional<RooflineGpu> gpu);

/// The share of `speedups` (nullopt: no counting attempt, a failure) that are > p; 0 for an empty list.
double fast_share(const std::vector<std::optional<double>>& speedups, double p);

}  // namespace ucut::report
