// engine/mantis/model_context.h — who drives MANTIS (the built-in proposer, or a language model one call per
// phase) and what the model-driven loop needs: the ledger every call goes through, the model's name, the
// repair bound, the profile view and the GPU the SOL briefing names. The phases themselves:
// engine/mantis/model_phases.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/model_ledger.h"
#include "sol/gpu_table.h"

namespace ucut::mantis {

/// Who plans an iteration: none (search::propose or a baseline, Options::search), orchestrated (a model, one
/// call per phase: engine/mantis/model_phases.h), in_prompt (one controller conversation; built elsewhere).
enum class Agent { none, orchestrated, in_prompt };
/// "none" | "orchestrated" | "in-prompt".
std::string_view agent_name(Agent a);
/// The agent_name spellings, and "builtin" for none; nullopt otherwise.
std::optional<Agent> parse_agent(std::string_view name);

/// What Analyze shows of a profile: the class and the metrics that matter for it, or every metric read.
enum class ProfileView { filtered, full };
/// "filtered" | "full".
std::string_view profile_view_name(ProfileView v);
std::optional<ProfileView> parse_profile_view(std::string_view name);

/// The model behind Options::agent.
struct ModelContext {
  engine::ModelLedger* ledger = nullptr;  // every call goes through it (recorded, replayed on resume)
  std::string model;                      // the llm config's model: attempts' proposer is "model:<model>"
  int repairs = 2;  // per ask, invalid answers sent back; and Implement's rounds of checker feedback
  ProfileView profile_view = ProfileView::filtered;
  sol::GpuSpec gpu;  // what the SOL briefing names
};

}  // namespace ucut::mantis
