// tests/unit/cli/exit_codes_test.cpp — `ucutlass` exits with the codes of cli/exit_codes.def only: CLI11's
// own refusals (an unknown command or option, a missing option, a value that does not convert or is outside
// its set) are usage errors (2) said in one message naming the command, with the nearest name; `--help` and
// `--version` are 0, and `--version` names the commit the binary was built from. Run as the binary.
#include "cli/exit_codes.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "../test_paths.h"
#include "support/subprocess.h"

namespace ucut::cli {
namespace {

ProcessResult ucutlass(std::vector<std::string> args) {
  args.insert(args.begin(), ucut::test_paths::cli_path());
  return run_process(args, ProcessOptions::with_timeout(60));
}

/// The command's exit code is `code`, and its stderr holds `said`.
void expect(const std::vector<std::string>& args, int code, const std::string& said) {
  ProcessResult r = ucutlass(args);
  std::string all = r.out + r.err;
  EXPECT_EQ(r.exit_code, code) << all;
  EXPECT_NE(r.err.find(said), std::string::npos) << "stderr:\n" << r.err;
  EXPECT_EQ(all.find("--help for more information"), std::string::npos) << all;  // CLI11's own wording
}

TEST(ExitCodes, AnUnknownOptionIsAUsageErrorWithTheNearestOption) {
  expect({"run", "x.ucut", "--problem", "p.toml", "--tirals", "5"}, kUsage,
         "ucutlass run: unknown option '--tirals', did you mean '--trials'?\nRun 'ucutlass run --help' for "
         "its options.");
  expect({"suite", "check", "suites", "--jsn"}, kUsage,
         "ucutlass suite check: unknown option '--jsn', did you mean '--json'?");
}

TEST(ExitCodes, AMissingRequiredOptionIsAUsageError) {
  expect({"run", "x.ucut"}, kUsage, "ucutlass run: --problem is required");
  expect({"optimize", "suites/kernelbench"}, kUsage, "ucutlass optimize: --workspace is required");
  expect({"bench", "kernelbench"}, kUsage,
         "ucutlass bench kernelbench: --impl, --best or --combine is required");
}

TEST(ExitCodes, ABadValueForACheckedOptionIsAUsageError) {
  expect({"optimize", "suites", "--workspace", "w.db", "--policy", "greedy"}, kUsage,
         "ucutlass optimize: --policy");
  expect({"optimize", "suites", "--workspace", "w.db", "--input-sets", "7"}, kUsage,
         "ucutlass optimize: --input-sets");
  expect({"run", "x.ucut", "--problem", "p.toml", "--trials", "many"}, kUsage, "ucutlass run: ");
  // A verdict rests on at least two input sets at different addresses (docs/harness.md).
  expect({"optimize", "suites", "--workspace", "w.db", "--input-sets", "1"}, kUsage,
         "ucutlass optimize: --input-sets");
  expect({"run", "x.ucut", "--problem",
          ucut::test_paths::source_dir() + "/suites/kernelbench/level1/L1_001_square_matmul.toml",
          "--input-sets", "1"},
         kUsage, "--input-sets 2 to 8 (a verdict rests on at least two input sets");
  expect({"emit", "--stage", "bytes", "x.ucut"}, kUsage, "ucutlass emit: ");
}

TEST(ExitCodes, UnknownAndMissingCommandsAreUsageErrors) {
  expect({"chek", "x.ucut"}, kUsage, "ucutlass: unknown command 'chek', did you mean 'check'?");
  expect({"suite", "chek", "suites"}, kUsage,
         "ucutlass suite: unknown command 'chek', did you mean 'check'?");
  expect({"workspace"}, kUsage, "ucutlass workspace: a command is required: show, export, import");
  expect({}, kUsage, "ucutlass: a command is required: check, compile,");
}

TEST(ExitCodes, HelpAndVersionSucceed) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--help"},
                                        {"run", "--help"},
                                        {"bench", "kernelbench", "--help"},
                                        {"--version"}}) {
    ProcessResult r = ucutlass(args);
    EXPECT_EQ(r.exit_code, kOk) << args.front() << "\n" << r.out << r.err;
    EXPECT_FALSE(r.out.empty());
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
  ProcessResult version = ucutlass({"--version"});
  EXPECT_TRUE(version.out.starts_with("ucutlass 0.1.0")) << version.out;
  if (std::filesystem::exists(ucut::test_paths::source_dir() + "/.git"))  // built from a checkout: its commit
    EXPECT_NE(version.out.find(" (commit "), std::string::npos) << version.out;
  ProcessResult help = ucutlass({"--help"});
  EXPECT_NE(help.out.find(
                "Exit codes: 0 ok, 1 spec errors, 2 usage, 3 I/O, 4 needs a GPU, 5 run failed, 70 internal "
                "error (docs/cli.md)."),
            std::string::npos)
      << help.out;
}

}  // namespace
}  // namespace ucut::cli
