// cli/cmd_sol.cpp — `ucutlass sol`: speed-of-light bounds of a problem file's shapes on a GPU from the
// datasheet table (sol/) and, with a calibration, from measured ceilings and the latency floor; `ucutlass sol
// --gpus` lists that table. Needs no GPU.
#include <iostream>

#include "cli/commands.h"
#include "sol/roofline.h"
#include "workflow/sol_query.h"

namespace ucut::cli {
namespace {

struct SolArgs {
  SolQuery q;
  bool gpus = false;
  bool json = false;
};

int error(const std::string& message, int code) {
  std::cerr << "ucutlass sol: " << message << "\n";
  return code;
}

int run_sol(const SolArgs& a) {
  if (!a.gpus && a.q.problem.empty())
    return error("give --problem FILE (or --gpus to list the GPU table); see 'ucutlass sol --help'", kUsage);
  if (a.gpus) {
    std::string err;
    auto table = sol::load_default_gpu_table(&err);
    if (!table) return error(err, kIoError);
    if (a.json) std::cout << sol::gpu_table_json(*table).dump(2) << "\n";
    else std::cout << sol::render_gpu_table_text(*table);
    return kOk;
  }
  SolAnswer answer = sol_of_problem(a.q);
  if (!answer.warning.empty()) std::cerr << "ucutlass sol: warning: " << answer.warning << "\n";
  if (!answer.report) return error(answer.error, answer.usage ? kUsage : kIoError);
  if (a.json)
    std::cout << sol::sol_json(*answer.report).dump(2) << "\n";
  else
    std::cout << sol::render_sol_text(*answer.report);
  return kOk;
}

}  // namespace

Command sol_command() {
  return {"sol",
          "speed-of-light bounds (FLOPs, bytes, roofline at TF32/FP16/own precision) of a problem on a GPU; "
          "with a calibration, the measured bounds and latency floor",
          [](CLI::App& sub) {
            auto a = std::make_shared<SolArgs>();
            sub.add_option(
                "--problem", a->q.problem,
                "the problem: a problem file (docs/problems.md) or a suite problem (docs/suites.md)");
            sub.add_option("--gpu", a->q.gpu, "a data/gpus.toml key or CUDA device name (default h200)");
            sub.add_option("--clock-mhz", a->q.clock_mhz,
                           "scale the datasheet peaks to this SM clock (peak x clock / boost clock)");
            sub.add_option("--precision", a->q.precision,
                           "the precision of the kernel bound: fp64 fp64_tensor fp32 tf32 fp16 bf16 fp8 int8 "
                           "(default: the problem's)");
            sub.add_option(
                "--calibration", a->q.calibration,
                "a calibration JSON file to report achievable bounds and the latency floor (t_SOL_eff) "
                "(default: the calibration store's newest for --gpu)");
            sub.add_flag("--no-calibration", a->q.no_calibration, "ignore the calibration store");
            sub.add_flag("--gpus", a->gpus, "list the GPU table and exit");
            sub.add_flag("--json", a->json, "answer JSON on stdout");
            return [a]() -> int { return run_sol(*a); };
          }};
}

}  // namespace ucut::cli
