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

  /// Records that run `run_id` used the mantis, dsl, sol and profile packs (name, version, hash).
  static void record_prompt_packs(store::Workspace& ws, int64_t run_id);

  /// Points `mantis` at this model.
  void attach(mantis::Options& mantis, const OptimizeOptions& o, const sol::GpuSpec& gpu);

  /// Charges `sched` every MANTIS call `ws` holds for `problems` (a resumed run's spending so far), then
  /// makes every call to be sent ask `sched` whether the run's budget allows it. `sched` must outlive this
  /// object's calls.
  void bind(sched::Scheduler& sched, store::Workspace& ws, const std::vector<std::string>& problems);

  /// Charges the calls sent since the last charge to `problem`.
  void charge(const std::string& problem);

  const engine::ModelLedger& ledger() const { return *ledger_; }

 private:
  OptimizeModel(store::Workspace& ws, const llm::LlmConfig& config);

  llm::Client client_;
  std::unique_ptr<engine::ModelLedger> ledger_;
  sched::Scheduler* sched_ = nullptr;
  int64_t charged_tokens_ = 0;  // of the ledger's sent tokens and cost, what the scheduler has been charged
  double charged_usd_ = 0;
};

}  // namespace ucut
