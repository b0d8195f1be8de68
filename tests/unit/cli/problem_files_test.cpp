// tests/unit/cli/problem_files_test.cpp — the commands that take one problem (`run`, `sol`) read a problem
// file or a suite problem alike, and a broken problem file is named with its rule, line and column; run as
// the binary on this CPU-only machine (a seeded build cache and a worker script that finds no GPU stand in
// for nvcc and the device). A problem's name is any text.
#include <gtest/gtest.h>

#include <filesystem>

#include "../profile/profile_fakes.h"
#include "../temp_dir.h"
#include "../test_paths.h"
#include "problem/print.h"
#include "suite/problem_file.h"
#include "support/files.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

using profile::testing::source_path;

constexpr const char* kSuiteProblem = "suites/kernelbench/level1/L1_001_square_matmul.toml";
constexpr const char* kSpec = "bench/kernelbench/impl/L1_001_square_matmul.ucut";

ProcessResult ucutlass(std::vector<std::string> args) {
  args.insert(args.begin(), ucut::test_paths::cli_path());
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

/// L1_001's problem under another name, written as a problem file in `dir`.
std::string renamed_problem(const ucut::testing::TempDir& dir, const std::string& name) {
  auto lowered = lower_problem_file(source_path(kSuiteProblem));
  Problem p = std::get<LoweredProblem>(lowered).problem;
  p.name = name;
  std::string path = dir.file("renamed.toml");
  EXPECT_TRUE(write_file(path, print_problem(p)));
  return path;
}

// A problem's name is only ever text (messages, JSON, the TOML a workflow writes, quoted): since the harness
// builds the problem's syntax tree (problem/semantics.h) it is not turned into a spec, and the file names
// workflows write and the identifiers exports write come from a suite file's stem or the kernel's name, never
// from it. So any name works, `-` included, and nothing validates it.
TEST(ProblemFiles, AnyProblemNameWorksEndToEnd) {
  ucut::testing::TempDir dir{"ucut-problem-name"};
  for (std::string name : {"my-problem", "my problem \"v2\" / 2026-12"}) {
    SCOPED_TRACE(name);
    std::string path = renamed_problem(dir, name);
    ProcessResult sol = ucutlass({"sol", "--problem", path, "--json"});
    EXPECT_EQ(sol.exit_code, 0) << sol.out << sol.err;
    EXPECT_EQ(nlohmann::json::parse(sol.out, nullptr, false).value("problem", ""), name) << sol.out;
    std::string cache = dir.file("cache");
    if (!profile::testing::seed_build_cache(cache, kSpec))
      GTEST_SKIP() << "nvcc or CUTLASS missing: no build key";
    std::string worker = profile::testing::worker_without_gpu(dir.path());
    ProcessResult run = ucutlass(
        {"run", source_path(kSpec), "--problem", path, "--cache-dir", cache, "--worker", worker, "--json"});
    EXPECT_EQ(run.exit_code, 4) << run.out << run.err;  // checked, matched and built; timing needs a GPU
    EXPECT_EQ(nlohmann::json::parse(run.out, nullptr, false).value("problem", ""), name) << run.out;
    EXPECT_EQ((run.out + run.err).find("error["), std::string::npos) << run.out << run.err;
  }
}

}  // namespace
}  // namespace ucut
