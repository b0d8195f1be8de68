// workflow/mskb_bench.h — `ucutlass bench mskb`: the MSKB suite's launchers (naive, vendor, and a folder of
// `<name>_optimized` candidates) built, verified and timed by the MSKB worker (mskb/runner.h), with speed-of-light
// bounds per case, integrity flags and the scores of mskb/score.h. Each (task, precision) pair's result is also
// written on its own, so a run cut short resumes where it stopped (`resume`).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/flags.h"
#include "mskb/launcher_build.h"
#include "mskb/protocol.h"
#include "mskb/score.h"
#include "sol/gpu_table.h"

namespace ucut {

struct MskbBenchOptions {
  std::vector<std::string> tasks;  // empty: all
  std::vector<mskb::Precision> precisions = {mskb::Precision::fp32, mskb::Precision::bf16};
  std::string suite_dir = "suites/mskb";
  std::string impl_dir;            // candidates: <name>.cu or <precision>/<name>.cu defining <name>_optimized
  std::string out_dir = "out/mskb";
  std::string cache_dir;           // default: default_cache_dir()
  std::string cutlass_dir;
  std::string gencode = "arch=compute_90a,code=sm_90a";
  std::string gpu = "h200";        // the SOL table entry when no GPU answers (the worker's GPU otherwise)
  std::string worker;              // default: find_mskb_worker()
  int jobs = 0;                    // parallel nvcc (0: default_build_jobs())
  bool build_only = false;
  bool resume = false;             // reuse pair results already in out_dir/pairs
  bool verbose = false;            // echo the worker's progress lines (case, role, phase, seconds) to stderr
  double time_limit_s = 0;         // start no new pair after this many seconds (0: no limit)
  std::string calibration;      // the latency floor's calibration file; "": the store's for the measuring GPU
  bool no_calibration = false;  // no latency floor: % SOL against the datasheet bound alone
  mskb::MskbRequest knobs;         // timing and reference settings (task, impls and items are filled per pair)
};

/// One role's result on one case.
struct MskbImplResult {
  mskb::Status status = mskb::Status::ok;
  bool correct = false, reverify = false;
  bool compat_checked = false, compat_correct = false;
  std::vector<FlagId> flags;  // the measurement's (impl_result) and the candidate source's, on every case
  double gpu_ms = 0, wall_ms = 0, compat_ms = 0, gpu_cv = 0;
  int compat_calls = 0;
  double seconds = 0;  // the worker's wall time on this item
  mskb::ReferenceKind reference_kind = mskb::ReferenceKind::none;
  mskb::GpuTimer gpu_timer = mskb::GpuTimer::none;
  std::string error;
  bool ok() const { return status == mskb::Status::ok && correct && none_disqualifies(flags); }
};

struct MskbCaseRow {
  std::string label;
  double complexity = 0;
  double flops = 0, bytes = 0;
  double sol_ms = 0;        // at the task precision's tensor peak (TF32 for FP32) and DRAM bandwidth
  double sol_floor_ms = 0;  // at the FP16 peak: a time below it is physically implausible
  double sol_eff_ms = 0;    // t_SOL_eff = max(sol_ms, the pair's latency floor); 0 without a floor
  bool latency_bound = false;  // sol_ms is below the latency floor: the floor, not the work, bounds the time
  std::map<std::string, MskbImplResult> impls;  // by role name (mskb::Role), as the JSON object keys them
};

struct MskbPairReport {
  std::string task, name, category, vendor;
  std::string gpu_name, driver_version, runtime_version, date;  // where and when it was measured
  mskb::Precision precision = mskb::Precision::fp32;
  std::map<std::string, std::string> build_errors;  // by role name
  std::map<std::string, std::string> build_first_errors;  // by role name: the build log's first error line, trimmed
  std::map<FlagId, std::string>
      source_flags;  // the candidate's static flags (eval/library_calls.h): id → reason
  std::string candidate_library;  // a library-call export's `// library: NAME` line (cub, cufft); empty otherwise
  std::vector<MskbCaseRow> cases;
  std::string run_error;  // the worker could not run at all
  std::string sol_gpu;    // the GPU table entry of the cases' SOL bounds: the measuring GPU's when known
  double latency_floor_ms = 0;  // the measured latency floor (workflow/mskb_floor.h); 0: none
  std::string floor_source;     // the calibration the floor came from, or why there is none
  // Scores against the naive launcher (GPU busy time, and MSKB-compatible launch+sync time), by role name.
  std::map<std::string, mskb::PairScore> kernel, compat;
  std::optional<mskb::PairScore> candidate_vs_vendor;  // GPU busy time
};

struct MskbBenchReport {
  std::string gpu_name, driver_version, runtime_version, date, impl_dir, sol_gpu;
  std::vector<MskbPairReport> pairs;
  bool needs_gpu = false;
  bool build_only = false;
  // Over all pairs, by role name then timing basis ("kernel", "compat").
  std::map<std::string, std::map<std::string, mskb::SuiteScore>> scores;
};

MskbBenchReport bench_mskb(const MskbBenchOptions& opts);

/// The tasks opts.tasks names (every task when empty); empty with `error` naming an unknown one.
std::vector<const mskb::Task*> selected_tasks(const MskbBenchOptions& opts, std::string* error);

/// One (task, precision) pair, the path bench_mskb takes for each: `sources` (mskb::launcher_sources: naive,
/// vendor, candidate) built through `cache` for opts.gencode, the candidate's source scanned for library
/// calls, every launcher that built verified and timed by the MSKB worker on every case (unless
/// opts.build_only), the integrity flags raised and the pair scored. The SOL bounds (and the faster_than_sol
/// flag) are those of the GPU the worker names, found in `table`; `fallback` (the --gpu entry) serves when it
/// names none or one the table lacks (null: no bounds). A launcher that does not build, or a worker that
/// cannot run, is reported (build_errors, run_error), never thrown.
MskbPairReport measure_mskb_pair(const mskb::Task& t, mskb::Precision p,
                                 const std::vector<mskb::LauncherSource>& sources,
                                 const MskbBenchOptions& opts, const KernelCache& cache,
                                 const sol::GpuTable* table, const sol::GpuSpec* fallback);

/// Speedups of the launcher keyed `label` in p's cases (source_label: "candidate", or a tune variant's label) over
/// the one keyed `base`, per case, on the GPU busy time (compat false) or the MSKB-compatible time: a case counts
/// as failed unless both are correct and unflagged.
mskb::PairScore launcher_score(const MskbPairReport& p, const std::string& label, const std::string& base,
                               bool compat);

/// The worker could not run at all and named no GPU: verifying and timing need one.
bool pair_needs_gpu(const MskbPairReport& p);

nlohmann::json mskb_bench_json(const MskbBenchReport& r);
std::string mskb_bench_markdown(const MskbBenchReport& r, const std::string& command);

void to_json(nlohmann::json& j, const MskbPairReport& v);
void from_json(const nlohmann::json& j, MskbPairReport& v);

}  // namespace ucut
