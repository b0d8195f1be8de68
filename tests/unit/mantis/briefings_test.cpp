// tests/unit/mantis/briefings_test.cpp — engine/mantis/briefings.h: what the model phases' slots hold. A
// stored profile in its filtered and full views (the kernel named by attempt and config, not CUTLASS's long
// name), why there is none, the SOL briefing with and without bounds, and the DSL system prompt with the rule
// table.
#include "engine/mantis/briefings.h"

#include <gtest/gtest.h>

#include "../profile/fixture.h"
#include "engine/profile/classify.h"
#include "engine/profile/filter.h"
#include "engine/profile/ncu_csv.h"
#include "sol/gpu_table.h"
#include "subjects.h"

namespace ucut::mantis {
namespace {

/// A profile of attempt 7 as the local executor stores it: the filtered profile and every metric.
BestProfile stored_profile() {
  profile::KernelProfile k =
      profile::parse_ncu_csv(profile::testing::read_fixture("fixture_ncu_raw_2kernels.csv")).kernels.at(0);
  BestProfile p;
  p.attempt = 7;
  p.config_hash = "abcdef1234567890";
  p.outcome.counters = true;
  p.outcome.report = {{"profile", profile::render_json(
                                      profile::filter(k, profile::classify(k, profile::prior_thresholds())))},
                      {"all_metrics", profile::render_all_json(k)}};
  return p;
}

TEST(MantisBriefings, AProfileInItsFilteredAndFullViews) {
  std::string filtered = profile_text(stored_profile(), ProfileView::filtered);
  EXPECT_NE(filtered.find("### Profile of `attempt #7 (config abcdef123456)` (Nsight Compute, filtered)"),
            std::string::npos)
      << filtered;
  EXPECT_NE(filtered.find("attempt #7 (config abcdef123456): compute"), std::string::npos) << filtered;
  EXPECT_NE(filtered.find("SM Busy: 78.0%"), std::string::npos) << filtered;
  EXPECT_EQ(filtered.find("every metric"), std::string::npos);

  std::string full = profile_text(stored_profile(), ProfileView::full);
  EXPECT_NE(full.find("(Nsight Compute, every metric read)"), std::string::npos) << full;
  EXPECT_NE(full.find("Classification: compute — "), std::string::npos) << full;
  EXPECT_NE(full.find("(sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed)"), std::string::npos)
      << full;
  EXPECT_GT(full.size(), filtered.size());
}

TEST(MantisBriefings, WithoutCountersThePromptSaysWhy) {
  EXPECT_EQ(profile_text(std::nullopt, ProfileView::filtered), "not profiled");
  BestProfile p;
  p.outcome.reason = "ncu is not installed";
  EXPECT_EQ(profile_text(p, ProfileView::full), "not profiled: ncu is not installed");
}

TEST(MantisBriefings, TheSolBriefingNamesTheGpuTheBoundsAndTheGap) {
  Subject s = testing::square_matmul("compute");
  std::string error;
  auto table = sol::load_default_gpu_table(&error);
  ASSERT_TRUE(table) << error;
  store::AttemptRow best;
  best.id = 3;
  best.time_ms = 0.6;
  std::string text = sol_briefing(s, *table->find_key("h200"), best, true);
  EXPECT_NE(text.find("L1_001_square_matmul on NVIDIA H200"), std::string::npos) << text;
  EXPECT_NE(text.find("| TF32 tensor cores (steering) | 0.3 ms |"), std::string::npos) << text;
  EXPECT_NE(text.find("Its side of the roofline: compute."), std::string::npos) << text;
  EXPECT_NE(text.find("Gap g = t_best / t_SOL = 2.00"), std::string::npos) << text;
  EXPECT_EQ(sol_briefing(s, *table->find_key("h200"), best, false),
            "Speed-of-light bounds are switched off for this run (an ablation): no gap is given.");
}

TEST(MantisBriefings, TheDslSystemPromptCarriesTheGuideAndEveryRule) {
  std::string system = dsl_system_prompt("sm90a");
  EXPECT_NE(system.find("lowers to CUTLASS C++ for sm90a"), std::string::npos);
  EXPECT_NE(system.find("- C213 `"), std::string::npos);
  EXPECT_EQ(system.find("{{"), std::string::npos);  // every slot and include filled
}

}  // namespace
}  // namespace ucut::mantis
