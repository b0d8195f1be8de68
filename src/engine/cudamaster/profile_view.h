// engine/cudamaster/profile_view.h — the Planner's `profile` slot: the best launcher's profile as the
// `profile` pack shows it, filtered (the bottleneck class and the few metrics that matter for it:
// CUDAMaster's default) or full (every metric read: the paper's ablation, more tokens). Both views are
// rendered and stored once per profiled launcher, so a resumed run, whichever view it asks for, shows the
// Planner the same numbers.
#pragma once

#include <string>

#include "engine/cudamaster/evaluator.h"
#include "llm/prompt_pack.h"
#include "support/enum_json.h"

namespace ucut::engine::cudamaster {

enum class ProfileView { filtered, full };

constexpr auto enum_names(ProfileView) {
  return name_table<ProfileView>("profile view",
                                 {{ProfileView::filtered, "filtered"}, {ProfileView::full, "full"}});
}
UCUT_ENUM_JSON(ProfileView)

struct ProfileViews {
  std::string filtered, full;
};

/// Both views of `p` through `profile_pack` (prompts/profile: filtered.md, full.md). Without counters both
/// say so, with the reason and what timing and SOL still tell.
ProfileViews render_profile_views(const ProfileResult& p, const llm::PromptPack& profile_pack);

/// The slot when the best launcher has not been timed, so there is nothing to profile: says why.
std::string no_profile_text(const std::string& kernel, const std::string& why,
                            const llm::PromptPack& profile_pack, ProfileView view);

}  // namespace ucut::engine::cudamaster
