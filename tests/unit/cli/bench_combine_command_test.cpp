// tests/unit/cli/bench_combine_command_test.cpp — `bench kernelbench --combine` records the command as it was
// typed, every option included (cli/invocation.h), in its JSON and on its page; a later combine of that
// report names it with its run. Run as the binary.
#include <gtest/gtest.h>

#include <fstream>

#include "../temp_dir.h"
#include "../test_paths.h"
#include "support/subprocess.h"
#include "workflow/suite_bench.h"

namespace ucut {
namespace {

SuiteBenchReport run_of(const std::string& date, const std::string& problem) {
  SuiteBenchReport r;
  r.gpu_name = "NVIDIA H200";
  r.date = date;
  SuiteBenchRow row;
  row.problem = problem;
  row.family = "gemm";
  row.status = SuiteRowStatus::measured;
  row.correct = true;
  row.ours_ms = 1.0;
  row.eager_ms = 2.0;
  r.rows.push_back(row);
  score_suite_bench(r);
  return r;
}

TEST(BenchCombineCommand, TheCommandAsTypedIsKept) {
  testing::TempDir dir("ucut-combine-cmd");
  std::ofstream(dir.file("a.json")) << suite_bench_json(run_of("2026-12-01T10:00:00Z", "P1")).dump();
  std::ofstream(dir.file("b.json")) << suite_bench_json(run_of("2026-12-02T10:00:00Z", "P2")).dump();
  std::string out = dir.file("out dir");  // a space: the recorded command quotes it
  ProcessResult r =
      run_process({ucut::test_paths::cli_path(), "bench", "kernelbench", "--combine", dir.file("a.json"),
                   dir.file("b.json"), "--newest-wins", "--only", "P1", "P2", "--out", out},
                  ProcessOptions::with_timeout(60));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::string want = "ucutlass bench kernelbench --combine " + dir.file("a.json") + " " + dir.file("b.json") +
                     " --newest-wins --only P1 P2 --out '" + out + "'";
  SuiteBenchReport written =
      suite_bench_from_json(nlohmann::json::parse(std::ifstream(out + "/kernelbench.json")));
  EXPECT_EQ(written.command, want);
  std::stringstream md;
  md << std::ifstream(out + "/kernelbench.md").rdbuf();
  EXPECT_NE(md.str().find("Command: `" + want + "`"), std::string::npos) << md.str();
}

}  // namespace
}  // namespace ucut
