// engine/mantis/model_context.cpp — see model_context.h.
#include "engine/mantis/model_context.h"

#include "support/error.h"

namespace ucut::mantis {

std::string_view agent_name(Agent a) {
  switch (a) {
    case Agent::none:
      return "none";
    case Agent::orchestrated:
      return "orchestrated";
    case Agent::in_prompt:
      return "in-prompt";
  }
  UC_UNREACHABLE() << "Agent " << static_cast<int>(a);
}

std::optional<Agent> parse_agent(std::string_view name) {
  if (name == "builtin") return Agent::none;
  for (Agent a : {Agent::none, Agent::orchestrated, Agent::in_prompt})
    if (name == agent_name(a)) return a;
  return std::nullopt;
}

std::string_view profile_view_name(ProfileView v) { return v == ProfileView::filtered ? "filtered" : "full"; }

std::optional<ProfileView> parse_profile_view(std::string_view name) {
  for (ProfileView v : {ProfileView::filtered, ProfileView::full})
    if (name == profile_view_name(v)) return v;
  return std::nullopt;
}

}  // namespace ucut::mantis
