// tests/unit/cli/workspace_commands_test.cpp — the commands that open a workspace, run as the binary. Those
// that only read it (`report`, `search-compare`, `workspace show` and `export`) leave copies of committed
// workspaces (schema 2, migrated in memory) byte for byte as they were, with no -wal or -shm beside them;
// search-compare says what a recording lacks, with the command that records it, before printing anything
// (exit 2); and a file that is no workspace is named in plain words, without SQL, by every command that opens
// one (exit 3). `workspace best` writes the best specs of several workspaces and refuses mixed tolerances
// (exit 2).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "../store/fixture.h"
#include "../test_paths.h"
#include "cli/exit_codes.h"
#include "support/files.h"
#include "support/subprocess.h"

namespace ucut::cli {
namespace {

namespace fs = std::filesystem;
using store::testing::files_in;

/// `ucutlass ARGS...` run in `cwd` (a recording names its problem files relative to the repository root).
ProcessResult ucutlass_in(const std::string& cwd, std::vector<std::string> args) {
  args.insert(args.begin(), {"sh", "-c", "cd \"$0\" && exec \"$@\"", cwd, ucut::test_paths::cli_path()});
  return run_process(args, ProcessOptions::with_timeout(300));
}

/// Copies the committed workspace `rel` into `dir` and returns the copy's path.
std::string copy_committed(const std::string& rel, const fs::path& dir) {
  fs::path to = dir / fs::path(rel).filename();
  fs::copy_file(fs::path(ucut::test_paths::source_dir()) / rel, to);
  return to.string();
}

TEST(ReadOnlyCommands, LeaveACommittedWorkspaceByteForByte) {
  ucut::testing::TempDir tmp("ucut-read-only");
  fs::create_directories(tmp.path() / "w");
  std::string kb = copy_committed("bench/results/optimize_1e-2/kb1e2.db", tmp.path() / "w");
  std::string exh = copy_committed("bench/results/search/exh.db", tmp.path() / "w");
  std::map<std::string, std::string> bytes = {{kb, read_file(kb).value()}, {exh, read_file(exh).value()}};
  const std::vector<std::pair<std::vector<std::string>, int>> commands = {
      {{"report", kb, "-o", tmp.file("report")}, kOk},
      {{"report", kb, exh, "-o", tmp.file("repeats")}, kOk},
      {{"search-compare", exh, "--budget", "4", "--random-seeds", "5", "--workdir", tmp.file("replay"), "-o",
        tmp.file("search")},
       kOk},
      {{"search-compare", kb, "--workdir", tmp.file("replay")}, kUsage},  // no exhaustive run
      {{"workspace", "show", kb}, kOk},
      {{"workspace", "export", exh, tmp.file("part.db")}, kOk},
      {{"workspace", "best", kb, "--out", tmp.file("best")}, kOk},
  };
  for (const auto& [args, code] : commands) {
    ProcessResult r = ucutlass_in(ucut::test_paths::source_dir(), args);
    EXPECT_EQ(r.exit_code, code) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_EQ(files_in(tmp.path() / "w"), (std::vector<std::string>{"exh.db", "kb1e2.db"})) << args[0];
    for (const auto& [path, was] : bytes)
      EXPECT_TRUE(read_file(path) == was) << args[0] << " changed " << path;
  }
  EXPECT_TRUE(fs::exists(tmp.file("report/report.html")));
  EXPECT_TRUE(fs::exists(tmp.file("search/search_compare.md")));
  EXPECT_TRUE(fs::exists(tmp.file("part.db")));
  EXPECT_TRUE(fs::exists(tmp.file("best/provenance.json")));
}

/// Expects `r` refused as bad input (exit 2) before printing anything, its stderr starting with `start`.
void expect_refused(const ProcessResult& r, const std::string& start) {
  EXPECT_EQ(r.exit_code, kUsage) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind(start, 0), 0u) << r.err;
}

TEST(SearchCompareCli, SaysWhatTheRecordingLacksBeforePrintingAnything) {
  ucut::testing::TempDir tmp("ucut-search-compare-cli");
  std::string kb = copy_committed("bench/results/optimize_1e-2/kb1e2.db", tmp.path());
  ProcessResult none =
      ucutlass_in(ucut::test_paths::source_dir(), {"search-compare", kb, "--workdir", tmp.file("replay")});
  expect_refused(none, "ucutlass search-compare: '" + kb +
                           "' holds no exhaustive run (6 runs, searched by proposer): search-compare "
                           "replays the measurements of an exhaustive run. ");
  EXPECT_NE(none.err.find("Record one on a GPU machine with `ucutlass optimize PROBLEMS --workspace " + kb +
                          " --search exhaustive --knobs KNOBS`"),
            std::string::npos)
      << none.err;

  // Run away from the repository root, the recording's problem files are not found: each problem says so.
  std::string exh = copy_committed("bench/results/search/exh.db", tmp.path());
  ProcessResult lost =
      ucutlass_in(tmp.path().string(), {"search-compare", exh, "--workdir", tmp.file("replay")});
  expect_refused(lost, "ucutlass search-compare: no problem of '" + exh +
                           "' can be compared:\n  L1_001_square_matmul: the problem file: ");
  EXPECT_NE(lost.err.find("suites/kernelbench/level1/L1_001_square_matmul.toml"), std::string::npos)
      << lost.err;

  ProcessResult gpu = ucutlass_in(ucut::test_paths::source_dir(), {"search-compare", exh, "--gpu", "h201"});
  expect_refused(gpu, "ucutlass search-compare: unknown GPU `h201` for --gpu (see `ucutlass sol --gpus`)\n");
  EXPECT_EQ(gpu.err.find('\n'), gpu.err.size() - 1) << gpu.err;
}

TEST(WorkspaceErrors, AFileThatIsNoWorkspaceIsNamedWithoutSql) {
  ucut::testing::TempDir tmp("ucut-not-a-workspace");
  std::string notes = tmp.file("notes.db");
  std::ofstream(notes) << std::string(300, '.') << "\n";
  std::string problem = ucut::test_paths::source_dir() + "/suites/kernelbench/level1/L1_001_square_matmul.toml";
  const std::vector<std::vector<std::string>> commands = {
      {"report", notes, "-o", tmp.file("out")},
      {"search-compare", notes},
      {"workspace", "show", notes},
      {"workspace", "export", notes, tmp.file("part.db")},
      {"workspace", "import", tmp.file("w.db"), notes},
      {"workspace", "best", notes, "--out", tmp.file("best")},
      {"optimize", problem, "--workspace", notes, "--baseline", ""},
  };
  for (const std::vector<std::string>& args : commands) {
    ProcessResult r = ucutlass_in(tmp.path().string(), args);
    EXPECT_EQ(r.exit_code, kIoError) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("'" + notes + "' is not a μCUTLASS workspace: it is not an SQLite database\n"),
              std::string::npos)
        << args[0] << ": " << r.err;
    for (const char* leak : {"SQL:", "PRAGMA", "please report"})
      EXPECT_EQ(r.err.find(leak), std::string::npos) << args[0] << ": " << r.err;
  }
  EXPECT_EQ(read_file(notes), std::string(300, '.') + "\n");
}

TEST(WorkspaceBestCli, WritesTheBestOfSeveralAndRefusesMixedTolerances) {
  ucut::testing::TempDir tmp("ucut-workspace-best-cli");
  std::string loose = copy_committed("bench/results/optimize_1e-2/kb1e2.db", tmp.path());
  std::string conv = copy_committed("bench/results/optimize_1e-2_conv/kbconv.db", tmp.path());
  std::string tight = copy_committed("bench/results/optimize_1e-4/kb1e4.db", tmp.path());
  ProcessResult ok =
      ucutlass_in(ucut::test_paths::source_dir(), {"workspace", "best", loose, conv, "--out", tmp.file("best")});
  EXPECT_EQ(ok.exit_code, kOk) << ok.err;
  EXPECT_NE(ok.out.find("(tolerance 0.01, framework inputs)"), std::string::npos) << ok.out;
  EXPECT_TRUE(fs::exists(tmp.file("best/L1_001_square_matmul.ucut")));
  EXPECT_TRUE(fs::exists(tmp.file("best/provenance.json")));
  ProcessResult mixed = ucutlass_in(ucut::test_paths::source_dir(),
                                    {"workspace", "best", loose, tight, "--out", tmp.file("mixed")});
  expect_refused(mixed, "ucutlass workspace best: " + loose + " (");
  EXPECT_NE(mixed.err.find("were verified under different conditions"), std::string::npos) << mixed.err;
  EXPECT_FALSE(fs::exists(tmp.file("mixed")));
}

}  // namespace
}  // namespace ucut::cli
