// workflow/optimize_model.cpp — see optimize_model.h.
#include "workflow/optimize_model.h"

#include <fmt/format.h>

#include "engine/mantis/briefings.h"
#include "llm/errors.h"

namespace ucut {

OptimizeModel::OptimizeModel(store::Workspace& ws, const llm::LlmConfig& config)
    : client_(config), ledger_(std::make_unique<engine::ModelLedger>(ws, client_)) {}

std::unique_ptr<OptimizeModel> OptimizeModel::open(const OptimizeOptions& o, store::Workspace& ws,
                                                   std::string* error) {
  if (!o.llm) {
    *error = fmt::format("--agent {} needs a model: give --llm-config", mantis::agent_name(o.mantis.agent));
    return nullptr;
  }
  if (o.llm->model.empty()) {
    *error = "the llm config names no model: set `model` in its table";
    return nullptr;
  }
  try {
    return std::unique_ptr<OptimizeModel>(new OptimizeModel(ws, *o.llm));
  } catch (const llm::SetupError& e) {
    *error = e.what();
    return nullptr;
  }
}

std::string OptimizeModel::with_settings(const OptimizeOptions& o, const std::string& settings_json) {
  nlohmann::json settings = nlohmann::json::parse(settings_json);
  settings["agent"] = mantis::agent_name(o.mantis.agent);
  if (o.llm) {
    settings["model"] = o.llm->model;
    settings["base_url"] = llm::url_for_display(o.llm->base_url);
  }
  settings["repairs"] = o.mantis.model.repairs;
  settings["profile_view"] = mantis::profile_view_name(o.mantis.model.profile_view);
  if (o.policy.token_budget) settings["token_budget"] = *o.policy.token_budget;
  if (o.policy.usd_budget) settings["usd_budget"] = *o.policy.usd_budget;
  return settings.dump();
}

void OptimizeModel::record_prompt_packs(store::Workspace& ws, int64_t run_id) {
  for (const char* name : {"mantis", "dsl", "sol", "profile"}) {
    const llm::PromptPack& pack = mantis::prompt_pack(name);
    ws.add_prompt_pack({run_id, pack.name, std::to_string(pack.version), pack.hash});
  }
}

void OptimizeModel::attach(mantis::Options& mantis, const OptimizeOptions& o, const sol::GpuSpec& gpu) {
  mantis.model.ledger = ledger_.get();
  mantis.model.model = o.llm->model;
  mantis.model.gpu = gpu;
}

void OptimizeModel::bind(sched::Scheduler& sched, store::Workspace& ws,
                         const std::vector<std::string>& problems) {
  sched_ = &sched;
  for (const std::string& id : problems) {
    store::LlmCallFilter calls;
    calls.problem_id = id;
    int64_t tokens = 0;
    double usd = 0;
    for (const store::LlmRoleUsage& role : ws.llm_usage(calls).roles)
      if (parse_enum<store::Stage>(role.role)) {  // the MANTIS phases' calls, not another agent's
        tokens += role.tokens();
        usd += role.cost_usd;
      }
    sched.spend(id, tokens, usd);
  }
  ledger_->set_send_gate([this] {
    return sched_->model_budget_spent(ledger_->sent_tokens() - charged_tokens_,
                                      ledger_->sent_cost_usd() - charged_usd_);
  });
}

void OptimizeModel::charge(const std::string& problem) {
  sched_->spend(problem, ledger_->sent_tokens() - charged_tokens_, ledger_->sent_cost_usd() - charged_usd_);
  charged_tokens_ = ledger_->sent_tokens();
  charged_usd_ = ledger_->sent_cost_usd();
}

}  // namespace ucut
