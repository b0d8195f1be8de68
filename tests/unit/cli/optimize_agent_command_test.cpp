// tests/unit/cli/optimize_agent_command_test.cpp — `ucutlass optimize --agent ...` run as the binary: the
// model's options are checked before anything is opened (a missing --llm-config, a budget without an agent,
// an agent this build's parser does not take are usage errors that name the option), and no workspace is
// created.
#include <gtest/gtest.h>

#include <filesystem>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "cli/exit_codes.h"
#include "support/subprocess.h"

namespace ucut {
namespace {

ProcessResult optimize_with(const std::string& workspace, std::vector<std::string> options) {
  std::vector<std::string> argv = {
      ucut::test_paths::cli_path(), "optimize",
      ucut::test_paths::source_dir() + "/suites/kernelbench/level1/L1_001_square_matmul.toml", "--workspace",
      workspace};
  argv.insert(argv.end(), options.begin(), options.end());
  return run_process(argv, ProcessOptions::with_timeout(60));
}

TEST(OptimizeAgentCli, OrchestratedWithoutAnLlmConfigIsAUsageError) {
  ucut::testing::TempDir dir("ucut-optimize-agent");
  ProcessResult r = optimize_with(dir.file("w.db"), {"--agent", "orchestrated"});
  EXPECT_EQ(r.exit_code, cli::kUsage) << r.out << r.err;
  EXPECT_EQ(r.err,
            "ucutlass optimize: --agent orchestrated needs --llm-config FILE: the model's endpoint and name "
            "(docs/agents.md)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("w.db")));
}

TEST(OptimizeAgentCli, ABudgetWithoutAnAgentIsAUsageError) {
  ucut::testing::TempDir dir("ucut-optimize-agent");
  ProcessResult r = optimize_with(dir.file("w.db"), {"--token-budget", "1000"});
  EXPECT_EQ(r.exit_code, cli::kUsage) << r.out << r.err;
  EXPECT_EQ(
      r.err,
      "ucutlass optimize: --token-budget applies only with --agent orchestrated|in-prompt or --detector\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("w.db")));
}

TEST(OptimizeAgentCli, AnAgentThisParserDoesNotTakeIsAUsageError) {
  ucut::testing::TempDir dir("ucut-optimize-agent");
  ProcessResult r =
      optimize_with(dir.file("w.db"), {"--agent", "planner", "--llm-config", dir.file("x.toml")});
  EXPECT_EQ(r.exit_code, cli::kUsage) << r.out << r.err;
  EXPECT_NE(r.err.find("--agent"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("w.db")));
}

TEST(OptimizeAgentCli, TheDetectorWithoutAModelIsAUsageError) {
  ucut::testing::TempDir dir("ucut-optimize-agent");
  ProcessResult r = optimize_with(dir.file("w.db"), {"--detector"});
  EXPECT_EQ(r.exit_code, cli::kUsage) << r.out << r.err;
  EXPECT_EQ(r.err,
            "ucutlass optimize: --detector needs --llm-config FILE: the model's endpoint and name "
            "(docs/agents.md)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("w.db")));
}

}  // namespace
}  // namespace ucut
