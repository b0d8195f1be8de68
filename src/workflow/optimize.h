// workflow/optimize.h — `ucutlass optimize`: the engine over a set of suite problems. Each problem is lowered to a
// harness problem, gets its starting spec (a hand-written one from `seeds_dir` when there is one, else one
// generated from the problem, engine/search/seed_spec.h), its speed-of-light bounds and its recorded PyTorch
// baseline, and joins the workspace. The budget scheduler (engine/sched) then hands out turns round-robin; a turn
// is one MANTIS step (engine/mantis/loop.h) until the scheduler's leave rules or the iteration count retire the
// problem. Everything lands in the workspace as it happens: the same command on the same workspace resumes.
//
// Baselines here steer the search and the leave rules; they come from a recorded run (bench/results/kernelbench).
// Claims are made by `ucutlass bench kernelbench --best WORKSPACE`, which times PyTorch beside our kernels.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/mantis/in_prompt.h"
#include "engine/mantis/loop.h"
#include "engine/sched/policy.h"
#include "llm/config.h"
#include "suite/problem_file.h"
#include "support/progress.h"
#include "workflow/measure.h"

namespace ucut {

struct OptimizeOptions {
  std::vector<std::string> paths;  // suite problem files or folders
  std::string workspace;           // the SQLite workspace (created when missing)
  sched::Policy policy;            // budget = attempts per problem
  mantis::Options mantis;
  std::string seeds_dir = "bench/kernelbench/impl";                   // <problem>.ucut starting specs
  std::string baseline = "bench/results/kernelbench/baseline.json";  // recorded eager times ("" = none)
  std::string arch = "sm90a";
  std::optional<double> tolerance;  // replaces every problem's atol = rtol (e.g. 1e-2, KernelBench's original)
  std::string command;             // for the run record
  MeasureOptions measure;
  // The model mantis.agent asks (required unless the agent is none). Every call goes through the workspace's
  // ledger; the run records the prompt packs it used and, in its settings, the agent, model and endpoint
  // (never the key). The policy's token and USD budgets cap the calls of all problems together: the scheduler
  // is charged each call as it is made, a resumed run first the calls the workspace holds for its problems,
  // and once a budget is spent no call is sent and every problem leaves (`model_budget`).
  std::optional<llm::LlmConfig> llm;
  // --agent in-prompt: the tool table the controller offers and the handler of every tool but `run` and
  // `profile` (agent/model_tools.h, wired by the CLI, a floor up), and the table's lines for its prompt.
  std::vector<llm::ToolSpec> controller_tools;
  std::function<mantis::ToolReply(const std::string&, const nlohmann::json&)> call_tool;
  std::string controller_tools_text;
  // A model reviews every verified, unflagged attempt (engine/review.h): its verdict may add model_shortcut
  // (disqualifies) or model_suspicious (a label). Needs `llm`.
  bool detector = false;
};

enum class OptimizeStatus { optimized, skipped };

struct OptimizeRow {
  std::string problem;
  OptimizeStatus status = OptimizeStatus::optimized;
  std::string detail{};  // why skipped, or where the seed spec came from
  int attempts = 0;
  std::optional<double> best_ms{}, baseline_ms{}, sol_tf32_ms{};
  std::string left{};    // the scheduler's leave reason, or "" while still active
  bool waits_for_gpu = false;  // its next candidate is compiled and pending: nothing could time it here
  std::string note{};          // why it left early, when the loop said (a model's phase failed, nothing new)
};

struct OptimizeReport {
  int64_t run_id = 0;
  std::vector<OptimizeRow> rows;
  bool needs_gpu = false;  // nothing could be timed here (no GPU)
  int waiting = 0;         // with needs_gpu: candidates compiled that wait as pending attempts
  std::string message;     // what went wrong; with needs_gpu: why nothing was timed, what was done
  int attempts_this_run = 0;
  double build_seconds = 0, run_seconds = 0;
  std::string model_budget;  // the run's model budget was spent: what and how much ("" otherwise)
  int model_calls = 0;       // model calls sent in this run (replayed ones cost nothing again)
  int64_t model_tokens = 0;
  double model_usd = 0;
};

/// Runs the engine with `executor` (engine::LocalExecutor for this machine); `progress` receives one line per
/// finished attempt and per retired problem (the live display), and first a note when the executor cannot
/// time (no GPU): then each problem's next candidate is compiled and left pending for a GPU machine. `status`,
/// when given, counts the attempts against the active problems' unspent budget, with the problem in hand.
OptimizeReport optimize(const OptimizeOptions& o, engine::Executor& executor,
                        const std::function<void(const std::string&)>& progress, Progress* status = nullptr);

/// A Markdown table of the report: per problem attempts, best, baseline, speedup, gap, state; then totals.
std::string optimize_markdown(const OptimizeReport& r);

}  // namespace ucut
