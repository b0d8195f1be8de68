// tests/unit/profile/thresholds_test.cpp — engine/profile/thresholds.h: learning by Otsu with the per-metric
// prior fallback, the JSON round trip (in memory and through a file), and malformed input.
#include "engine/profile/thresholds.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fixture.h"

namespace ucut::profile {
namespace {

using testing::sol_profile;

// Synthetic: SM% in two clusters (near 10 and near 70), DRAM% all the same, Memory% missing on all but one.
std::vector<KernelProfile> corpus() {
  std::vector<KernelProfile> c;
  const double sm[] = {8, 10, 12, 68, 70, 72};
  for (int i = 0; i < 6; ++i) c.push_back(sol_profile("k" + std::to_string(i), sm[i], 25, i == 0 ? 50 : -1));
  c[0].source = "fixture task a";
  return c;
}

TEST(ProfileThresholds, PriorSaysWhereItComesFrom) {
  Thresholds t = prior_thresholds();
  EXPECT_DOUBLE_EQ(t.sm_pct, 30);
  EXPECT_DOUBLE_EQ(t.dram_pct, 30);
  EXPECT_DOUBLE_EQ(t.mem_pct, 30);
  EXPECT_EQ(t.source, "prior: 30% (CUDAMaster's brief), no corpus yet");
  EXPECT_TRUE(t.corpus.empty());
  EXPECT_EQ(learn_thresholds({}, "empty").source, t.source);
}

TEST(ProfileThresholds, LearnsByOtsuAndFallsBackPerMetric) {
  Thresholds t = learn_thresholds(corpus(), "synthetic");
  EXPECT_DOUBLE_EQ(t.sm_pct, 40);  // halfway between 12 and 68
  EXPECT_DOUBLE_EQ(t.dram_pct, kPriorThresholdPct);
  EXPECT_DOUBLE_EQ(t.mem_pct, kPriorThresholdPct);
  EXPECT_NE(t.source.find("otsu over 6 profiles of 'synthetic'"), std::string::npos) << t.source;
  EXPECT_NE(t.source.find("SM 40% (otsu over 6 values)"), std::string::npos) << t.source;
  EXPECT_NE(t.source.find("DRAM 30% (prior: only 1 distinct value among 6)"), std::string::npos) << t.source;
  EXPECT_NE(t.source.find("Memory 30% (prior: only 1 distinct value among 1)"), std::string::npos)
      << t.source;
  EXPECT_EQ(t.corpus_name, "synthetic");
  ASSERT_EQ(t.corpus.size(), 6u);
  EXPECT_EQ(t.corpus[0], (CorpusKernel{"k0",
                                       "fixture task a",
                                       {{std::string(metric::sm_throughput), 8},
                                        {std::string(metric::dram_throughput), 25},
                                        {std::string(metric::memory_throughput), 50}}}));
  EXPECT_EQ(t.corpus[1].metrics.size(), 2u);  // Memory% missing
  EXPECT_EQ(t.date.size(), 20u);  // 2026-12-01T18:00:00Z
}

TEST(ProfileThresholds, JsonRoundTrip) {
  Thresholds t = learn_thresholds(corpus(), "synthetic");
  std::string error;
  auto back = thresholds_from_json(thresholds_json(t), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_DOUBLE_EQ(back->sm_pct, t.sm_pct);
  EXPECT_DOUBLE_EQ(back->dram_pct, t.dram_pct);
  EXPECT_DOUBLE_EQ(back->mem_pct, t.mem_pct);
  EXPECT_EQ(back->source, t.source);
  EXPECT_EQ(back->date, t.date);
  EXPECT_EQ(back->corpus_name, t.corpus_name);
  EXPECT_EQ(back->corpus, t.corpus);
}

TEST(ProfileThresholds, TheStoredCorpusLearnsTheSameThresholdsAgain) {
  Thresholds t = learn_thresholds(corpus(), "synthetic");
  std::string error;
  auto back = thresholds_from_json(thresholds_json(t), &error);
  ASSERT_TRUE(back) << error;
  std::vector<KernelProfile> again = corpus_profiles(*back);
  ASSERT_EQ(again.size(), 6u);
  EXPECT_EQ(again[0].source, "fixture task a");
  Thresholds relearned = learn_thresholds(again, back->corpus_name);
  EXPECT_DOUBLE_EQ(relearned.sm_pct, t.sm_pct);
  EXPECT_DOUBLE_EQ(relearned.dram_pct, t.dram_pct);
  EXPECT_DOUBLE_EQ(relearned.mem_pct, t.mem_pct);
  EXPECT_EQ(relearned.corpus, t.corpus);
}

TEST(ProfileThresholds, FileRoundTrip) {
  auto dir = std::filesystem::temp_directory_path() / ("ucut-prof-thr-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "thresholds.json").string();
  std::string error;
  Thresholds t = learn_thresholds(corpus(), "synthetic");
  ASSERT_TRUE(save_thresholds(t, path, &error)) << error;
  auto back = load_thresholds(path, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_DOUBLE_EQ(back->sm_pct, 40);
  EXPECT_EQ(back->corpus, t.corpus);

  std::ofstream(dir / "broken.json") << "{\"schema\": ";
  EXPECT_FALSE(load_thresholds((dir / "broken.json").string(), &error));
  EXPECT_NE(error.find("broken.json: not valid JSON"), std::string::npos) << error;
  EXPECT_FALSE(load_thresholds((dir / "absent.json").string(), &error));
  EXPECT_NE(error.find("absent.json: cannot read"), std::string::npos) << error;
  std::filesystem::remove_all(dir);
}

TEST(ProfileThresholds, MalformedJsonNamesTheField) {
  const nlohmann::json good = thresholds_json(learn_thresholds(corpus(), "synthetic"));
  auto error_for = [](const nlohmann::json& j) {
    std::string error;
    EXPECT_FALSE(thresholds_from_json(j, &error));
    return error;
  };
  EXPECT_EQ(error_for(nlohmann::json::array()), "thresholds are a JSON object");

  auto j = good;
  j["schema"] = "ucutlass.profile_thresholds/0";
  EXPECT_EQ(error_for(j), "field `schema` must be \"ucutlass.profile_thresholds/1\"");

  j = good;
  j.erase("dram_pct");
  EXPECT_EQ(error_for(j), "field `dram_pct` is missing");

  j = good;
  j["sm_pct"] = 130;
  EXPECT_EQ(error_for(j), "field `sm_pct` must be a number in [0, 100]");

  j = good;
  j["mem_pct"] = "30";
  EXPECT_EQ(error_for(j), "field `mem_pct` must be a number in [0, 100]");

  j = good;
  j["corpus"]["kernels"][2].erase("source");
  EXPECT_EQ(error_for(j), "field `corpus.kernels[2].source` is missing or not a string");

  j = good;
  j["corpus"]["kernels"] = "k0";
  EXPECT_EQ(error_for(j), "field `corpus.kernels` is missing or not an array");

  j = good;
  j["corpus"]["kernels"][1]["metrics"] = 3;
  EXPECT_EQ(error_for(j), "field `corpus.kernels[1].metrics` is not an object");

  j = good;
  j["corpus"]["kernels"][1]["metrics"]["sm__x"] = "high";
  EXPECT_EQ(error_for(j), "field `corpus.kernels[1].metrics.sm__x` is not a number");

  j = good;
  for (auto& k : j["corpus"]["kernels"]) k.erase("metrics");  // files from before the corpus kept its metrics
  EXPECT_TRUE(thresholds_from_json(j, nullptr));

  j = good;
  j.erase("corpus");
  EXPECT_EQ(error_for(j), "field `corpus` is missing or not an object");
}

}  // namespace
}  // namespace ucut::profile
