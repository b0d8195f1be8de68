// cli/cmd_mskb_optimize.cpp — `ucutlass mskb optimize TASK... --workspace W --llm-config FILE`: CUDAMaster's
// Planner, Coder, Compiler and Debug on MSKB pairs, R rounds x D debug tries (workflow/mskb_optimize.h).
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "cli/invocation.h"
#include "cli/io.h"
#include "llm/client.h"
#include "support/error.h"
#include "workflow/mskb_optimize.h"

namespace ucut::cli {
namespace {

struct OptimizeArgs {
  MskbOptimizeOptions o;
  std::string llm_config, llm_table = "llm";
  std::vector<std::string> precisions = {"fp32"};
  std::string profile = "filtered";
  bool json = false;
};

nlohmann::json report_json(const MskbOptimizeReport& r) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const MskbPairOutcome& p : r.pairs) {
    nlohmann::json rounds = nlohmann::json::array();
    for (const engine::cudamaster::RoundRecord& round : p.result.rounds) rounds.push_back(to_json(round));
    nlohmann::json usage = nlohmann::json::object();
    for (const store::LlmRoleUsage& u : p.usage.roles)
      usage[u.role] = {{"calls", u.calls},
                       {"prompt_tokens", u.prompt_tokens},
                       {"completion_tokens", u.completion_tokens},
                       {"cost_usd", u.cost_usd}};
    pairs.push_back(
        {{"pair", p.result.problem_id},
         {"best_attempt", p.result.best_attempt ? nlohmann::json(*p.result.best_attempt) : nlohmann::json()},
         {"best_score", p.result.best_score ? nlohmann::json(*p.result.best_score) : nlohmann::json()},
         {"improved", p.result.improved},
         {"best_path", p.best_path},
         {"naive_ms", p.naive_ms},
         {"rounds", rounds},
         {"tokens_by_role", usage},
         {"needs_gpu", p.result.needs_gpu},
         {"error", p.result.error}});
  }
  return {{"run", r.run_id}, {"pairs", pairs}};
}

int run(OptimizeArgs& a) {
  std::string error;
  std::optional<llm::LlmConfig> config = llm::load_llm_config(a.llm_config, a.llm_table, true, &error);
  if (!config) {
    std::cerr << "ucutlass mskb optimize: " << error << "\n";
    return kUsage;
  }
  if (config->model.empty()) {
    std::cerr << fmt::format("ucutlass mskb optimize: no model: set `model` in the [{}] table of {}\n",
                             a.llm_table, a.llm_config);
    return kUsage;
  }
  a.o.llm = *config;
  a.o.precisions.clear();
  for (const std::string& p : a.precisions)
    a.o.precisions.push_back(p == "fp32" ? mskb::Precision::fp32 : mskb::Precision::bf16);
  a.o.rounds.profile_view =
      a.profile == "full" ? engine::cudamaster::ProfileView::full : engine::cudamaster::ProfileView::filtered;
  a.o.command = invocation();
  MskbOptimizeReport r;
  try {
    r = optimize_mskb(a.o);
  } catch (const InternalError&) {
    throw;  // a bug, not this command's failure: main says so (exit 70)
  } catch (const std::invalid_argument& e) {
    std::cerr << "ucutlass mskb optimize: " << e.what() << "\n";
    return kUsage;
  } catch (const std::exception& e) {
    std::cerr << "ucutlass mskb optimize: " << e.what() << "\n";
    return kIoError;
  }
  if (a.json)
    std::cout << json_text(report_json(r));
  else
    std::cout << mskb_optimize_text(r);
  if (r.failed()) return kRunFailed;
  if (r.needs_gpu()) {
    std::cerr
        << "ucutlass mskb optimize: verifying and timing a launcher need a GPU this machine lacks; the "
           "rounds went as far as building (the interface check and compile errors need none); run the same "
           "command on a machine with a GPU to resume\n";
    return kNeedsGpu;
  }
  return kOk;
}

}  // namespace

std::function<int()> mskb_optimize_subcommand(CLI::App& mskb) {
  auto a = std::make_shared<OptimizeArgs>();
  CLI::App* sub = mskb.add_subcommand(
      "optimize",
      "CUDAMaster on MSKB tasks: Planner, Coder, Compiler and Debug take each (task, precision) from its "
      "naive "
      "launcher to a verified faster one, R rounds x D debug tries; resumable from the workspace");
  sub->add_option("tasks", a->o.tasks, "MSKB task names (`ucutlass mskb list`)")->required();
  sub->add_option("--workspace", a->o.workspace,
                  "the SQLite workspace (created when missing; resumed otherwise)")
      ->required();
  sub->add_option("--llm-config", a->llm_config,
                  "the TOML file with the model endpoint's [llm] table (docs/agents.md)")
      ->required();
  sub->add_option("--llm-table", a->llm_table, "the table of --llm-config to read (default llm)");
  sub->add_option("--precision", a->precisions, "fp32 and/or bf16 (default fp32)")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  sub->add_option("--rounds", a->o.rounds.rounds, "R: rounds per pair (default 3)")
      ->check(CLI::Range(1, 100));
  sub->add_option("--debug-tries", a->o.rounds.debug_tries, "D: Debug tries per round (default 3)")
      ->check(CLI::Range(0, 100));
  sub->add_flag(
      "--detector", a->o.rounds.detector,
      "have the model also review every candidate the harness verified for shortcuts (skipped work, "
      "special-cased inputs, cached results, library hand-off): `shortcut` fails it as an integrity "
      "failure that goes to Debug, `suspicious` labels it (docs/agents.md)");
  sub->add_option(
         "--profile", a->profile,
         "what the Planner sees of the best launcher's Nsight Compute profile: filtered (the bottleneck "
         "class and its few metrics, default) or full (every metric: CUDAMaster's ablation)")
      ->check(CLI::IsMember({"filtered", "full"}));
  sub->add_option("--out", a->o.out_dir,
                  "where candidate files and each pair's best launcher (<precision>/<name>.cu) go (default "
                  "out/cudamaster)");
  sub->add_option("--suite", a->o.eval.bench.suite_dir, "the MSKB launcher folder (default suites/mskb)");
  sub->add_option("--gencode", a->o.eval.bench.gencode,
                  "nvcc -gencode value (default arch=compute_90a,code=sm_90a)");
  sub->add_option("--gpu", a->o.eval.bench.gpu, "the GPU table entry for SOL bounds (default h200)");
  sub->add_option("--ncu", a->o.eval.profile.ncu, "the Nsight Compute binary (default: ncu on PATH)");
  sub->add_option("--cache-dir", a->o.eval.bench.cache_dir, "the build cache");
  sub->add_option("--cutlass", a->o.eval.bench.cutlass_dir,
                  "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
  sub->add_option("--worker", a->o.eval.bench.worker,
                  "the ucutlass-mskb-worker binary (default: beside ucutlass)");
  sub->add_option("--trial-seconds", a->o.eval.bench.knobs.trial_seconds,
                  "cold-L2 timing budget per launcher and case (default 1)");
  sub->add_flag("-v,--verbose", a->o.eval.bench.verbose, "print the worker's progress to stderr as it runs");
  sub->add_flag("--json", a->json, "print the report as JSON");
  return [a]() -> int { return run(*a); };
}

}  // namespace ucut::cli
