// engine/cudamaster/profile_view.cpp — see profile_view.h.
#include "engine/cudamaster/profile_view.h"

#include <fmt/format.h>

#include "engine/profile/thresholds.h"

namespace ucut::engine::cudamaster {

ProfileViews render_profile_views(const ProfileResult& p, const llm::PromptPack& pack) {
  const profile::FilteredProfile& f = p.filtered;
  std::string kernel = p.kernel.empty() ? f.kernel : p.kernel;
  ProfileViews v;
  v.filtered = pack.render("filtered.md", {{"kernel", kernel}, {"report", profile::render_text(f)}});
  std::string classification =
      fmt::format("{} — {}", enum_name(f.classification.bottleneck), f.classification.reason);
  std::string metrics = p.counters ? profile::render_all_text(*p.counters)
                                   : profile::render_text(f);  // no counters: what the degraded report knows
  v.full =
      pack.render("full.md", {{"kernel", kernel}, {"classification", classification}, {"metrics", metrics}});
  return v;
}

std::string no_profile_text(const std::string& kernel, const std::string& why, const llm::PromptPack& pack,
                            ProfileView view) {
  ProfileResult none;
  none.kernel = kernel;
  none.filtered = profile::degraded({kernel, why, {}, {}, {}}, profile::prior_thresholds());
  ProfileViews v = render_profile_views(none, pack);
  return view == ProfileView::full ? v.full : v.filtered;
}

}  // namespace ucut::engine::cudamaster
