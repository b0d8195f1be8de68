// cli/cmd_sol.cpp — `ucutlass sol`: speed-of-light bounds of a problem file's shapes on a GPU from the
// datasheet table (sol/), and `ucutlass sol --gpus` to list that table. Needs no GPU.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "sol/roofline.h"
#include "suite/problem_file.h"
#include "support/suggest.h"

namespace ucut::cli {
namespace {

struct SolArgs {
  std::string problem;
  std::string gpu = "h200";
  double clock_mhz = 0;
  std::string precision;
  std::string calibration;
  bool no_calibration = false;
  bool gpus = false;
  bool json = false;
};

int error(const std::string& message, int code) {
  std::cerr << "ucutlass sol: " << message << "\n";
  return code;
}

int run_sol(const SolArgs& a) {
  if (!a.gpus && a.problem.empty())
    return error("give --problem FILE (or --gpus to list the GPU table); see 'ucutlass sol --help'", kUsage);
  std::string err;
  auto table = sol::load_default_gpu_table(&err);
  if (!table) return error(err, kIoError);
  if (a.gpus) {
    if (a.json) std::cout << sol::gpu_table_json(*table).dump(2) << "\n";
    else std::cout << sol::render_gpu_table_text(*table);
    return kOk;
  }
  const sol::GpuSpec* gpu = table->find(a.gpu);
  if (!gpu) {
    // A key the word begins ("h100" → h100_sxm) beats the nearest spelling ("h100" → h200).
    std::optional<std::string> best;
    for (std::string_view k : table->keys())
      if (!best && a.gpu.size() >= 2 && k.substr(0, a.gpu.size()) == a.gpu) best = std::string(k);
    if (!best) best = closest_name(a.gpu, table->keys());
    return error(fmt::format("unknown GPU `{}`{}\nknown GPUs: {} ('ucutlass sol --gpus' lists them; a CUDA device "
                             "name such as \"NVIDIA H200\" also works)",
                             a.gpu, best ? fmt::format("; did you mean `{}`?", *best) : "", quoted_list(table->keys())),
                 kUsage);
  }
  sol::SolOptions opt;
  if (a.clock_mhz != 0) {
    if (a.clock_mhz < 100 || a.clock_mhz > 5000)
      return error(fmt::format("--clock-mhz {} is outside 100..5000 MHz", a.clock_mhz), kUsage);
    opt.clock_mhz = a.clock_mhz;
  }
  if (!a.precision.empty()) {
    opt.precision = sol::find_precision(a.precision);
    if (!opt.precision) {
      std::vector<std::string_view> names;
      for (sol::Precision p : sol::all_precisions()) names.push_back(sol::precision_name(p));
      return error(fmt::format("unknown precision `{}`; use {}", a.precision, quoted_list(names)), kUsage);
    }
  }
  if (!a.calibration.empty()) {
    opt.calibration = sol::load_calibration(a.calibration, &err);
    if (!opt.calibration) return error(err, kIoError);
  } else if (!a.no_calibration) {
    std::string skipped;
    opt.calibration = sol::find_calibration(*table, *gpu, sol::default_state_dir(), &skipped);
    if (!skipped.empty()) std::cerr << "ucutlass sol: warning: skipped unreadable calibration:\n" << skipped << "\n";
  }
  auto problem = load_problem_or_suite(a.problem, &err);
  if (!problem) return error(err, kUsage);  // as `run` and `profile`: an unusable problem file
  sol::SolReport report = problem->pipeline ? sol::sol_report(*gpu, *problem->pipeline, problem->shapes, opt)
                                            : sol::sol_report(*gpu, problem->semantics, problem->shapes, opt);
  report.problem = problem->name;
  if (a.json) std::cout << sol::sol_json(report).dump(2) << "\n";
  else std::cout << sol::render_sol_text(report);
  return kOk;
}

}  // namespace

Command sol_command() {
  return {"sol", "speed-of-light bounds (FLOPs, bytes, roofline at TF32/FP16/own precision) of a problem on a GPU",
          [](CLI::App& sub) {
            auto a = std::make_shared<SolArgs>();
            sub.add_option("--problem", a->problem,
                           "the problem: a problem file (docs/problems.md) or a suite problem (docs/suites.md)");
            sub.add_option("--gpu", a->gpu, "a data/gpus.toml key or CUDA device name (default h200)");
            sub.add_option("--clock-mhz", a->clock_mhz,
                           "scale the datasheet peaks to this SM clock (peak x clock / boost clock)");
            sub.add_option("--precision", a->precision,
                           "the precision of the kernel bound: fp64 fp64_tensor fp32 tf32 fp16 bf16 fp8 int8 "
                           "(default: the problem's)");
            sub.add_option("--calibration", a->calibration, "a calibration JSON file to report achievable bounds");
            sub.add_flag("--no-calibration", a->no_calibration, "ignore the calibration store");
            sub.add_flag("--gpus", a->gpus, "list the GPU table and exit");
            sub.add_flag("--json", a->json, "answer JSON on stdout");
            return [a]() -> int { return run_sol(*a); };
          }};
}

}  // namespace ucut::cli
