// tests/unit/profile/default_thresholds_test.cpp — engine/profile/default_thresholds.h: a named file must load; the
// data folder's profile_thresholds.json is used when it exists ($UCUT_DATA_DIR first, as for gpus.toml) and an
// unusable one falls back to the prior, saying why; and find_ncu looks on PATH.
#include "engine/profile/default_thresholds.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <optional>

#include "../temp_dir.h"
#include "engine/profile/ncu_run.h"
#include "fixture.h"

namespace ucut::profile {
namespace {

/// Sets an environment variable for one test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

Thresholds learned() {
  return learn_thresholds({testing::sol_profile("a", 10, 5, 8), testing::sol_profile("b", 50, 20, 30),
                           testing::sol_profile("c", 90, 70, 80)},
                          "fixture");
}

TEST(DefaultThresholds, TheDataFoldersFileIsUsed) {
  ucut::testing::TempDir dir("ucut-thr-default");
  ASSERT_TRUE(save_thresholds(learned(), dir.file(std::string(kThresholdsFileName)), nullptr));
  ScopedEnv env("UCUT_DATA_DIR", dir.path().string());
  EXPECT_EQ(default_thresholds_path(), dir.file(std::string(kThresholdsFileName)));
  auto t = resolve_thresholds("", nullptr);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->corpus_name, "fixture");
  EXPECT_EQ(t->source, learned().source);
}

TEST(DefaultThresholds, AnUnusableDataFileGivesThePriorAndSaysWhy) {
  ucut::testing::TempDir dir("ucut-thr-default");
  std::ofstream(dir.file(std::string(kThresholdsFileName))) << "{\"schema\": 1}";
  ScopedEnv env("UCUT_DATA_DIR", dir.path().string());
  auto t = resolve_thresholds("", nullptr);
  ASSERT_TRUE(t);
  EXPECT_DOUBLE_EQ(t->sm_pct, kPriorThresholdPct);
  EXPECT_EQ(t->source.rfind(prior_thresholds().source, 0), 0u) << t->source;
  EXPECT_NE(t->source.find("the thresholds file is unusable: " + dir.file(std::string(kThresholdsFileName)) +
                           ": field `schema`"),
            std::string::npos)
      << t->source;
}

TEST(DefaultThresholds, WithoutAFileThePrior) {
  ucut::testing::TempDir dir("ucut-thr-default");  // a data folder without a thresholds file, the only one searched
  EXPECT_EQ(default_thresholds_path({dir.path().string()}), "");
  EXPECT_EQ(resolve_thresholds("", nullptr, {dir.path().string()})->source, prior_thresholds().source);
  // The same folder with a file: the file.
  ASSERT_TRUE(save_thresholds(learned(), dir.file(std::string(kThresholdsFileName)), nullptr));
  EXPECT_EQ(default_thresholds_path({dir.path().string()}), dir.file(std::string(kThresholdsFileName)));
  EXPECT_NE(resolve_thresholds("", nullptr, {dir.path().string()})->source, prior_thresholds().source);
}

TEST(DefaultThresholds, ANamedFileMustLoad) {
  ucut::testing::TempDir dir("ucut-thr-default");
  std::string error;
  EXPECT_FALSE(resolve_thresholds(dir.file("absent.json"), &error));
  EXPECT_EQ(error, dir.file("absent.json") + ": cannot read");
  ASSERT_TRUE(save_thresholds(learned(), dir.file("mine.json"), nullptr));
  auto t = resolve_thresholds(dir.file("mine.json"), &error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->corpus.size(), 3u);
}

TEST(FindNcu, LooksOnPath) {
  ucut::testing::TempDir dir("ucut-find-ncu");
  std::string ncu = dir.file("ncu");
  std::ofstream(ncu) << "#!/bin/sh\n";
  ::chmod(ncu.c_str(), 0755);
  {
    ScopedEnv path("PATH", dir.path().string() + ":/usr/bin:/bin");
    EXPECT_EQ(find_ncu(), ncu);
  }
  ScopedEnv path("PATH", "/nonexistent");
  ScopedEnv home("CUDA_HOME", "/nonexistent");
  std::string fallback = find_ncu();
  EXPECT_TRUE(fallback == "ncu" || fallback == "/usr/local/cuda/bin/ncu") << fallback;
}

}  // namespace
}  // namespace ucut::profile
