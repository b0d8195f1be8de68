// tests/unit/cli/problem_files_test.cpp — the commands that take one problem (`run`, `sol`) read a problem file or a
// suite problem alike, and a broken problem file is named with its rule, line and column; run as the binary on this
// CPU-only machine (a seeded build cache and a worker script that finds no GPU stand in for nvcc and the device).
#include <gtest/gtest.h>

#include <filesystem>

#include "../profile/profile_fakes.h"
#include "../temp_dir.h"
#include "support/files.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

using profile::testing::source_path;

constexpr const char* kSuiteProblem = "suites/kernelbench/level1/L1_001_square_matmul.toml";
constexpr const char* kSpec = "bench/kernelbench/impl/L1_001_square_matmul.ucut";

ProcessResult ucutlass(std::vector<std::string> args) {
  args.insert(args.begin(), UCUT_CLI_PATH);
  return run_process(args, ProcessOptions::with_timeout(120));
}

TEST(ProblemFiles, SolTakesASuiteProblem) {
  ProcessResult r = ucutlass({"sol", "--problem", source_path(kSuiteProblem)});
  EXPECT_EQ(r.exit_code, 0) << (r.out + r.err);
  EXPECT_NE((r.out + r.err).find("SOL of L1_001_square_matmul"), std::string::npos) << (r.out + r.err);
  EXPECT_NE((r.out + r.err).find("shape 4096x4096x4096 (L1/1)"), std::string::npos) << (r.out + r.err);
}

TEST(ProblemFiles, RunTakesASuiteProblem) {
  ucut::testing::TempDir dir{"ucut-run-suite"};
  std::string cache = dir.file("cache");
  if (!profile::testing::seed_build_cache(cache, kSpec)) GTEST_SKIP() << "nvcc or CUTLASS missing: no build key";
  std::string worker = profile::testing::worker_without_gpu(dir.path());
  ProcessResult r = ucutlass({"run", source_path(kSpec), "--problem", source_path(kSuiteProblem), "--cache-dir", cache,
                              "--worker", worker});
  EXPECT_EQ(r.exit_code, 4) << (r.out + r.err);  // checked, matched and built; timing needs a GPU
  EXPECT_EQ((r.out + r.err).find("unknown key"), std::string::npos) << (r.out + r.err);
  EXPECT_NE((r.out + r.err).find("L1_001_square_matmul"), std::string::npos) << (r.out + r.err);
}

TEST(ProblemFiles, ABrokenProblemFileIsNamedWithItsRuleAndPlace) {
  ucut::testing::TempDir dir{"ucut-bad-problem"};
  std::string path = dir.file("bad.toml");
  ASSERT_TRUE(write_file(path, "name = \"t\"\na = \"bf16 row\"\nb = \"bf16 col\"\nd = \"bf16 row\"\n"
                               "epilogue = \"bias(col) >> gelu_tanhh\"\nshapes = [ { m = 64, n = 64, k = 64 } ]\n"));
  ProcessResult r = ucutlass({"sol", "--problem", path});
  EXPECT_EQ(r.exit_code, 2);  // a usage error, as for `run` and `profile` (cli/exit_codes.def)
  EXPECT_NE((r.out + r.err).find(path + ":5:26: error[L012]"), std::string::npos) << (r.out + r.err);  // inside the string
  EXPECT_NE((r.out + r.err).find("gelu_tanh"), std::string::npos) << (r.out + r.err);                  // the nearest stage
  r = ucutlass({"sol", "--problem", dir.path().string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE((r.out + r.err).find("is a directory"), std::string::npos) << (r.out + r.err);
}

}  // namespace
}  // namespace ucut
