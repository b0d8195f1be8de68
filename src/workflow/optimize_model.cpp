// workflow/optimize_model.cpp — see optimize_model.h.
#include "workflow/optimize_model.h"

#include <fmt/format.h>

#include "engine/mantis/briefings.h"
#include "engine/review.h"
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
  settings["detector"] = o.detector;
  settings["repairs"] = o.mantis.model.repairs;
  settings["profile_view"] = mantis::profile_view_name(o.mantis.model.profile_view);
  if (o.policy.token_budget) settings["token_budget"] = *o.policy.token_budget;
  if (o.policy.usd_budget) settings["usd_budget"] = *o.policy.usd_budget;
  return settings.dump();
}

void OptimizeModel::record_prompt_packs(const OptimizeOptions& o, store::Workspace& ws, int64_t run_id) {
  std::vector<std::string> names;
  if (o.mantis.agent != mantis::Agent::none) names = {"mantis", "dsl", "sol", "profile"};
  if (o.detector) names.push_back("detector");
  for (const std::string& name : names) {
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
      // The MANTIS phases', the in-prompt controller's and the detector's calls, not another agent's.
      if (parse_enum<store::Stage>(role.role) || role.role == "controller" || role.role == "detector") {
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

namespace ucut {

mantis::InPromptOptions OptimizeModel::controller_options(const OptimizeOptions& o, const sol::GpuSpec& gpu,
                                                          store::Workspace& ws) const {
  mantis::InPromptOptions c;
  c.tools = o.controller_tools;
  c.call_tool = o.call_tool;
  c.proposer = "model:" + o.llm->model;
  std::string budget = fmt::format("{} attempts for this problem", o.policy.budget);
  if (o.policy.token_budget)
    budget += fmt::format(", {} model tokens for the whole run", *o.policy.token_budget);
  if (o.policy.usd_budget) budget += fmt::format(", ${:g} for the whole run", *o.policy.usd_budget);
  bool sol_on = o.mantis.sol;
  std::string tools_text = o.controller_tools_text;
  c.opening = [&ws, gpu, budget, sol_on, tools_text](const mantis::Subject& s) {
    std::vector<store::AttemptRow> attempts = ws.attempts(s.row.id);
    std::optional<store::AttemptRow> seed;
    if (!attempts.empty() && attempts.front().counts()) seed = attempts.front();
    std::string controller = mantis::prompt_pack("mantis").render(
        "in_prompt.md", {{"problem", mantis::problem_text(s)},
                         {"sol", mantis::sol_briefing(s, gpu, seed, sol_on)},
                         {"budget", budget},
                         {"tools", tools_text}});
    return std::vector<llm::Message>{
        llm::Message::system(controller + "\n\n" + mantis::dsl_system_prompt(s.row.arch)),
        llm::Message::user(fmt::format("Optimize {}. Its seed spec is attempt #{}:\n\n```ucut\n{}\n```",
                                       s.row.id, attempts.empty() ? 0 : attempts.front().id, s.seed_spec))};
  };
  return c;
}

void OptimizeModel::review(const mantis::Subject& s, store::Workspace& ws, int64_t run_id,
                           store::AttemptRow& a) {
  std::string measured = fmt::format(
      "verified on every shape of the problem; median {:.4g} ms on the timed shape; speed-of-light bound "
      "(TF32) "
      "{:.4g} ms; integrity flags: {}",
      a.time_ms.value_or(0), s.row.sol_tf32_ms, a.flags.empty() ? "none" : nlohmann::json(a.flags).dump());
  engine::Review r = engine::review_candidate(*ledger_, {run_id, s.row.id, a.iteration, "detector"},
                                              {mantis::problem_text(s), a.spec, measured});
  for (FlagId f : r.flags())
    if (std::find(a.flags.begin(), a.flags.end(), f) == a.flags.end()) a.flags.push_back(f);
  a.flagged = !none_disqualifies(a.flags);
  nlohmann::json report = nlohmann::json::parse(a.result_json, nullptr, false);
  if (!report.is_object()) report = nlohmann::json::object();
  report["model_review"] = r.to_json();
  a.result_json = report.dump();
  a.tokens += r.tokens;
  ws.finish_attempt(a);
}

}  // namespace ucut
