// cli/cmd_optimize.cpp — `ucutlass optimize PROBLEMS... --workspace W`: the optimization engine over suite problems
// (workflow/optimize.h), with a live line per attempt on stderr and a Markdown summary on stdout. The same command on
// the same workspace resumes.
#include <fmt/format.h>

#include <iostream>

#include "agent/model_tools.h"
#include "cli/commands.h"
#include "cli/io.h"
#include "engine/search/space.h"
#include "support/error.h"
#include "support/progress.h"
#include "workflow/local_executor.h"
#include "workflow/optimize.h"

namespace ucut::cli {

Command optimize_command() {
  return {"optimize",
          "optimize suite problems with the MANTIS loop and the budget scheduler; results go to a SQLite workspace "
          "(resumable)",
          [](CLI::App& sub) -> std::function<int()> {
            auto o = std::make_shared<OptimizeOptions>();
            auto policy = std::make_shared<std::string>("fixed");
            auto eps = std::make_shared<double>(0.1);
            auto window = std::make_shared<int>(8);
            auto budget = std::make_shared<int>(40);
            auto no = std::make_shared<std::vector<std::string>>();
            auto search = std::make_shared<std::string>("proposer");
            auto agent = std::make_shared<std::string>("builtin");
            auto llm_config = std::make_shared<std::string>();
            auto llm_table = std::make_shared<std::string>("llm");
            auto profile_view = std::make_shared<std::string>("filtered");
            auto token_budget = std::make_shared<std::optional<int64_t>>();
            auto usd_budget = std::make_shared<std::optional<double>>();
            sub.add_option("problems", o->paths, "suite problem files or folders (e.g. suites/kernelbench)")->required();
            sub.add_option("--workspace", o->workspace, "the SQLite workspace (created when missing; resumed otherwise)")
                ->required();
            sub.add_option("--budget", *budget, "attempts per problem (default 40 = 5 iterations x 2 hypotheses x 4)");
            sub.add_option("--policy", *policy, "fixed (spend the budget) or sol (leave near the SOL bound or when stuck)")
                ->check(CLI::IsMember({"fixed", "sol"}));
            sub.add_option("--eps", *eps, "sol policy: leave when t_best <= (1+eps) t_SOL(FP16) and beating the baseline");
            sub.add_option("--window", *window, "sol policy: leave after this many attempts without improvement");
            sub.add_option("--iterations", o->mantis.iterations, "MANTIS iterations per problem (default 5)");
            sub.add_option("--hypotheses", o->mantis.hypotheses, "hypotheses Triage keeps per iteration (default 2)");
            sub.add_option("--attempts", o->mantis.attempts, "candidates per hypothesis (default 4)");
            sub.add_option("--no", *no, "switch a phase off for ablations: triage, summarize, sol, profile (Nsight Compute)")
                ->check(CLI::IsMember({"triage", "summarize", "sol", "profile"}));
            sub.add_option("--search", *search, "who nominates candidates: proposer (the built-in, default), random (uniform "
                                                "valid configs of the same space) or exhaustive (every valid config)")
                ->check(CLI::IsMember({"proposer", "random", "exhaustive"}));
            sub.add_option("--knobs", o->mantis.knobs, "limit the search to these knobs, comma-separated (tile, cluster, "
                                                       "schedule, tile_scheduler, raster, stages, math, operands, "
                                                       "conversion); others keep the starting spec's value")
                ->delimiter(',')
                ->check(CLI::IsMember(search::knob_names()));
            sub.add_option("--agent", *agent,
                           "who plans each iteration: builtin (the built-in proposer, default), "
                           "orchestrated (a model, one call per MANTIS phase) or in-prompt (one model "
                           "conversation per problem through the tool table); a model needs --llm-config")
                ->check(CLI::IsMember({"builtin", "none", "orchestrated", "in-prompt"}));
            sub.add_flag("--detector", o->detector,
                         "a model reviews every verified attempt's source for shortcuts: model_shortcut "
                         "(disqualifies) or model_suspicious (a label); needs --llm-config");
            sub.add_option("--llm-config", *llm_config,
                           "with --agent or --detector: the TOML file whose table names the model's endpoint, model and "
                           "prices (docs/agents.md)");
            sub.add_option("--llm-table", *llm_table,
                           "with --agent or --detector: the table of --llm-config to read (default llm)");
            sub.add_option("--repairs", o->mantis.model.repairs,
                           "with --agent: invalid answers sent back per call, and rounds of checker feedback "
                           "per hypothesis (default 2)")
                ->check(CLI::Range(0, 10));
            sub.add_option("--profile-view", *profile_view,
                           "with --agent: what Analyze shows of a profile: filtered (the class and its "
                           "metrics, default) or full (every metric)")
                ->check(CLI::IsMember({"filtered", "full"}));
            sub.add_option("--token-budget", *token_budget,
                           "with --agent or --detector: the model tokens the whole run may spend (all problems, resumed "
                           "runs included)")
                ->check(CLI::PositiveNumber);
            sub.add_option("--usd-budget", *usd_budget,
                           "with --agent or --detector: the dollars the whole run may spend on the model, at the llm "
                           "config's prices")
                ->check(CLI::PositiveNumber);
            sub.add_option("--tolerance", o->tolerance, "replace every problem's atol = rtol (e.g. 1e-2, the tolerance "
                                                        "KernelBench's published numbers used; TF32 is then a labelled "
                                                        "precision change); one workspace per tolerance");
            add_inputs_option(sub, o->measure.framework_inputs, "; one workspace per choice");
            sub.add_option("--seed", o->mantis.seed, "the proposer's seed (recorded with the run)");
            sub.add_option("--seeds", o->seeds_dir, "starting specs <problem>.ucut (default bench/kernelbench/impl); "
                                                    "problems without one start from a generated spec");
            sub.add_option("--baseline", o->baseline, "recorded PyTorch eager times that steer the scheduler "
                                                      "(default bench/results/kernelbench/baseline.json; \"\" for none)");
            sub.add_option("--trials", o->measure.trials, "timed runs per attempt (default 100)");
            sub.add_option("--input-sets", o->measure.input_sets, "input sets each attempt is verified on, 2 or 3 (default 3: "
                                                                  "uniform, normal, mixed magnitudes)")
                ->check(CLI::Range(2, 3));
            sub.add_flag("--no-cublas{false}", o->measure.time_cublas,
                         "do not time cuBLAS beside each attempt (the engine steers by the recorded baseline; halves "
                         "the GPU time of an exhaustive run)");
            sub.add_option("--gpu", o->measure.gpu, "the GPU for SOL bounds (a data/gpus.toml key, default h200)");
            sub.add_option("--cache-dir", o->measure.cache_dir, "the kernel build cache");
            sub.add_option("--cutlass", o->measure.cutlass_dir, "CUTLASS root (default: $CUTLASS_DIR or the installed one)");
            sub.add_option("-j,--jobs", o->measure.jobs, "parallel nvcc processes (default: by cores and memory)");
            return [o, policy, eps, window, budget, no, search, agent_name = agent, llm_config, llm_table,
                    profile_view, token_budget, usd_budget, &sub]() -> int {
              std::string error;
              std::string text = *policy == "sol" ? fmt::format("sol:eps={},window={}", *eps, *window) : "fixed";
              auto p = sched::parse_policy(text, *budget, &error);
              if (!p) {
                std::cerr << "ucutlass optimize: " << error << "\n";
                return kUsage;
              }
              o->policy = *p;
              o->policy.token_budget = *token_budget;
              o->policy.usd_budget = *usd_budget;
              o->mantis.agent = *mantis::parse_agent(*agent_name);
              bool agent = o->mantis.agent != mantis::Agent::none;
              if (!agent && !o->detector) {
                for (const char* option : {"--llm-config", "--llm-table", "--repairs", "--profile-view",
                                           "--token-budget", "--usd-budget"})
                  if (sub.count(option) > 0) {
                    std::cerr << "ucutlass optimize: " << option
                              << " applies only with --agent orchestrated|in-prompt or --detector\n";
                    return kUsage;
                  }
              } else {
                if (llm_config->empty()) {
                  std::cerr << "ucutlass optimize: " << (agent ? "--agent " + *agent_name : "--detector")
                            << " needs --llm-config FILE: the model's endpoint and name (docs/agents.md)\n";
                  return kUsage;
                }
                if (agent && sub.count("--search") > 0) {
                  std::cerr
                      << "ucutlass optimize: --search chooses among the built-in searches; it cannot be "
                         "combined with --agent\n";
                  return kUsage;
                }
                o->llm = llm::load_llm_config(*llm_config, *llm_table, true, &error);
                if (!o->llm) {
                  std::cerr << "ucutlass optimize: " << error << "\n";
                  return kUsage;
                }
                if (o->llm->model.empty()) {
                  std::cerr << "ucutlass optimize: " << *llm_config << ": the [" << *llm_table
                            << "] table names no model: set `model`\n";
                  return kUsage;
                }
                o->mantis.model.profile_view = *mantis::parse_profile_view(*profile_view);
              }
              for (const std::string& phase : *no) {
                if (phase == "triage") o->mantis.triage = false;
                if (phase == "summarize") o->mantis.summarize = false;
                if (phase == "sol") o->mantis.sol = false;
                if (phase == "profile") o->mantis.profile = false;
              }
              o->mantis.search = *mantis::parse_search(*search);
              o->command = fmt::format("ucutlass optimize {} --workspace {} --budget {} --policy {}",
                                       fmt::join(o->paths, " "), o->workspace, *budget, sched::print_policy(*p));
              if (o->mantis.search != mantis::Search::proposer) o->command += " --search " + *search;
              if (!o->mantis.knobs.empty())
                o->command += fmt::format(" --knobs {}", fmt::join(o->mantis.knobs, ","));
              if (o->tolerance) o->command += fmt::format(" --tolerance {:g}", *o->tolerance);
              if (o->measure.framework_inputs) o->command += " --inputs framework";
              if (agent || o->detector) {
                if (agent) o->command += " --agent " + *agent_name;
                if (o->detector) o->command += " --detector";
                o->command += fmt::format(" --llm-config {} --llm-table {} --repairs {} --profile-view {}",
                                          *llm_config, *llm_table, o->mantis.model.repairs, *profile_view);
                if (*token_budget) o->command += fmt::format(" --token-budget {}", **token_budget);
                if (*usd_budget) o->command += fmt::format(" --usd-budget {:g}", **usd_budget);
              }
              if (o->mantis.agent ==
                  mantis::Agent::in_prompt) {  // the tool table, answered as the MCP server does
                agent::ToolContext tools;
                tools.profile.measure = o->measure;
                o->controller_tools = agent::model_tool_specs();
                o->controller_tools_text = agent::model_tools_text();
                o->call_tool = [tools](const std::string& name, const nlohmann::json& args) {
                  return agent::call_tool_for_model(name, args, tools);
                };
              }
              OptimizeReport r;
              try {
                Progress status = Progress::on_stderr(false);
                engine::LocalExecutor executor(o->measure);
                auto log = [&](const std::string& line) { status.print(line); };  // above the status line
                r = optimize(*o, executor, log, &status);
              } catch (const InternalError&) {
                throw;  // a bug, not this command's failure: main says so (exit 70)
              } catch (const std::exception& e) {
                std::cerr << "ucutlass optimize: " << e.what() << "\n";
                return kIoError;
              }
              std::cout << optimize_markdown(r);
              if (r.needs_gpu) return kNeedsGpu;
              return r.message.empty() ? kOk : kRunFailed;
            };
          }};
}

}  // namespace ucut::cli
