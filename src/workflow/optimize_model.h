// workflow/optimize_model.h — the model behind `ucutlass optimize --agent` (workflow/optimize.h): its client
// and the workspace's ledger, what the run records about it (settings, prompt packs), and the accounting that
// charges its calls to the budget scheduler and stops sending once the run's token or USD budget is spent.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/model_ledger.h"
#include "engine/sched/scheduler.h"
#include "llm/client.h"
#include "workflow/optimize.h"

namespace ucut {

class OptimizeModel {
 public:
  /// The model `o.llm` names, its calls recorded in `ws`; nullptr with `error` set when there is no config or
  /// the client cannot be set up (an unusable key file).
  static std::unique_ptr<OptimizeModel> open(const OptimizeOptions& o, store::Workspace& ws,
                                             std::string* error);

  /// The run's settings (JSON text) with what they record of the agent added: agent, model, endpoint (without
  /// credentials), repairs, profile view and budgets.
  static std::string with_settings(const OptimizeOptions& o, const std::string& settings_json);

  /// Records the packs run `run_id` uses (name, version, hash): mantis, dsl, sol and profile with an agent,
  /// the detector's with --detector.
  static void record_prompt_packs(const OptimizeOptions& o, store::Workspace& ws, int64_t run_id);

  /// Points `mantis` at this model.
  void attach(mantis::Options& mantis, const OptimizeOptions& o, const sol::GpuSpec& gpu);

  /// Charges `sched` every MANTIS call `ws` holds for `problems` (a resumed run's spending so far), then
  /// makes every call to be sent ask `sched` whether the run's budget allows it. `sched` must outlive this
  /// object's calls.
  void bind(sched::Scheduler& sched, store::Workspace& ws, const std::vector<std::string>& problems);

  /// Charges the calls sent since the last charge to `problem`.
  void charge(const std::string& problem);

  const engine::ModelLedger& ledger() const { return *ledger_; }
  engine::ModelLedger& ledger() { return *ledger_; }

  /// The in-prompt controller's settings: `o`'s tool table and handler, and each problem's opening turns (the
  /// controller prompt with the problem, its SOL briefing as of its seed attempt, the run's budget and the
  /// tools, then the DSL pack): fixed per problem and run settings, so a resumed run asks the same words.
  mantis::InPromptOptions controller_options(const OptimizeOptions& o, const sol::GpuSpec& gpu,
                                             store::Workspace& ws) const;

  /// Has the model review verified, unflagged attempt `a` of `s` (engine/review.h) and adds its verdict's
  /// flag to `a`, stored; the review's verdict or failure goes into the attempt's report under
  /// "model_review".
  void review(const mantis::Subject& s, store::Workspace& ws, int64_t run_id, store::AttemptRow& a);

 private:
  OptimizeModel(store::Workspace& ws, const llm::LlmConfig& config);

  llm::Client client_;
  std::unique_ptr<engine::ModelLedger> ledger_;
  sched::Scheduler* sched_ = nullptr;
  int64_t charged_tokens_ = 0;  // of the ledger's sent tokens and cost, what the scheduler has been charged
  double charged_usd_ = 0;
};

}  // namespace ucut
