// workflow/sol_query.cpp — see sol_query.h.
#include "workflow/sol_query.h"

#include <fmt/format.h>

#include "sol/calibration.h"
#include "sol/gpu_table.h"
#include "suite/problem_file.h"
#include "support/suggest.h"

namespace ucut {
namespace {

SolAnswer fail(std::string message, bool usage) {
  SolAnswer a;
  a.error = std::move(message);
  a.usage = usage;
  return a;
}

}  // namespace

SolAnswer sol_of_problem(const SolQuery& q) {
  std::string err;
  auto table = sol::load_default_gpu_table(&err);
  if (!table) return fail(err, false);
  const sol::GpuSpec* gpu = table->find(q.gpu);
  if (!gpu) {
    // A key the word begins ("h100" → h100_sxm) beats the nearest spelling ("h100" → h200).
    std::optional<std::string> best;
    for (std::string_view k : table->keys())
      if (!best && q.gpu.size() >= 2 && k.substr(0, q.gpu.size()) == q.gpu) best = std::string(k);
    if (!best) best = closest_name(q.gpu, table->keys());
    return fail(
        fmt::format("unknown GPU `{}`{}\nknown GPUs: {} ('ucutlass sol --gpus' lists them; a CUDA device "
                    "name such as \"NVIDIA H200\" also works)",
                    q.gpu, best ? fmt::format("; did you mean `{}`?", *best) : "",
                    quoted_list(table->keys())),
        true);
  }
  sol::SolOptions opt;
  if (q.clock_mhz != 0) {
    if (q.clock_mhz < 100 || q.clock_mhz > 5000)
      return fail(fmt::format("--clock-mhz {} is outside 100..5000 MHz", q.clock_mhz), true);
    opt.clock_mhz = q.clock_mhz;
  }
  if (!q.precision.empty()) {
    opt.precision = sol::find_precision(q.precision);
    if (!opt.precision) {
      std::vector<std::string_view> names;
      for (sol::Precision p : sol::all_precisions()) names.push_back(sol::precision_name(p));
      return fail(fmt::format("unknown precision `{}`; use {}", q.precision, quoted_list(names)), true);
    }
  }
  SolAnswer a;
  if (!q.calibration.empty()) {
    opt.calibration = sol::load_calibration(q.calibration, &err);
    if (!opt.calibration) return fail(err, false);
  } else if (!q.no_calibration) {
    std::string skipped;
    opt.calibration = sol::find_calibration(*table, *gpu, sol::default_state_dir(), &skipped);
    if (!skipped.empty()) a.warning = "skipped unreadable calibration:\n" + skipped;
  }
  auto problem = load_problem_or_suite(q.problem, &err);
  if (!problem) return fail(err, true);  // as `run` and `profile`: an unusable problem file
  a.report = problem->pipeline ? sol::sol_report(*gpu, *problem->pipeline, problem->shapes, opt)
                               : sol::sol_report(*gpu, problem->semantics, problem->shapes, opt);
  a.report->problem = problem->name;
  return a;
}

}  // namespace ucut
