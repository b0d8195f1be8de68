// tests/unit/report/repeats_test.cpp — the spread of repeated runs (report/repeats.h): per repeat its filtered
// geomean, fast_1 and attempts, across repeats mean, standard deviation and CV, per problem over the repeats that
// have a speedup; and `ucutlass report W1 W2` writing every repeat's report and repeats.md/.json.
#include "report/repeats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "../test_paths.h"
#include "report_fixture.h"
#include "support/files.h"
#include "support/subprocess.h"

namespace ucut::report {
namespace {

namespace fs = std::filesystem;

ProblemReport problem(const std::string& id, std::optional<double> baseline, std::optional<double> speedup,
                      int attempts) {
  ProblemReport p;
  p.id = id;
  p.baseline_ms = baseline;
  p.speedup = speedup;
  p.attempts = attempts;
  return p;
}

WorkspaceReport repeat(double geomean, double fast_1, std::optional<double> a, std::optional<double> b) {
  WorkspaceReport r;
  r.geomean_filtered = geomean;
  r.fast_p = {{0, 1, 1}, {1, fast_1, fast_1}};
  r.problems = {problem("A", 1.0, a, 3), problem("B", 1.0, b, 2), problem("C", std::nullopt, std::nullopt, 1)};
  return r;
}

TEST(Repeats, SpreadOfGeomeanFastOneAttemptsAndPerProblem) {
  RepeatSummary s = summarize_repeats({{"r1.db", repeat(2.0, 0.5, 2.0, std::nullopt)},
                                       {"r2.db", repeat(4.0, 1.0, 4.0, 3.0)}});
  ASSERT_EQ(s.repeats.size(), 2u);
  EXPECT_EQ(s.repeats[0].workspace, "r1.db");
  EXPECT_EQ(s.repeats[1].attempts, 6);
  EXPECT_DOUBLE_EQ(s.geomean.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.geomean.stddev, std::sqrt(2.0));  // sample standard deviation
  EXPECT_DOUBLE_EQ(s.geomean.cv(), std::sqrt(2.0) / 3.0);
  EXPECT_DOUBLE_EQ(s.fast_1.mean, 0.75);
  ASSERT_EQ(s.problems.size(), 2u);  // C has no baseline in either repeat
  EXPECT_EQ(s.problems[0].id, "A");
  EXPECT_EQ(s.problems[0].stats.n, 2);
  EXPECT_DOUBLE_EQ(s.problems[0].stats.mean, 3.0);
  EXPECT_EQ(s.problems[1].id, "B");
  EXPECT_FALSE(s.problems[1].speedups[0]);  // no counting attempt in repeat 1: left out of its spread
  EXPECT_EQ(s.problems[1].stats.n, 1);
  EXPECT_DOUBLE_EQ(s.problems[1].stats.mean, 3.0);

  std::string md = repeats_markdown(s);
  EXPECT_NE(md.find("# Spread over 2 repeated runs"), std::string::npos) << md;
  EXPECT_NE(md.find("3.000 ± 1.414 (CV 47.1%)"), std::string::npos) << md;
  EXPECT_NE(md.find("| B | —, 3.00x | 3.000 ± 0.000 (CV 0.0%) |"), std::string::npos) << md;
  nlohmann::json j = repeats_json(s);
  EXPECT_DOUBLE_EQ(j["geomean"]["cv"].get<double>(), std::sqrt(2.0) / 3.0);
  EXPECT_TRUE(j["problems"][1]["speedups"][0].is_null());
}

TEST(Repeats, IdenticalRepeatsHaveNoSpread) {
  RepeatSummary s = summarize_repeats({{"a", repeat(2.5, 1, 2.5, 2.5)}, {"b", repeat(2.5, 1, 2.5, 2.5)}});
  EXPECT_EQ(s.geomean.stddev, 0);
  EXPECT_EQ(s.geomean.cv(), 0);
}

TEST(Repeats, ReportCommandWritesEachRepeatAndTheSpread) {
  testing::TempDir dir;
  for (const char* name : {"r1.db", "r2.db"}) {
    store::Workspace ws = store::Workspace::open(dir.file(name));
    testing::suite_workspace(ws);
  }
  std::string out = dir.file("out");
  ProcessResult r =
      run_process({ucut::test_paths::cli_path(), "report", dir.file("r1.db"), dir.file("r2.db"), "-o", out},
                  ProcessOptions::with_timeout(120));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("# Spread over 2 repeated runs"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(fs::path(out) / "repeat-1-r1" / "report.html"));
  EXPECT_TRUE(fs::exists(fs::path(out) / "repeat-2-r2" / "report.md"));
  auto json = read_file((fs::path(out) / "repeats.json").string());
  ASSERT_TRUE(json);
  EXPECT_EQ(nlohmann::json::parse(*json)["geomean"]["cv"], 0.0);  // the same workspace twice
  ProcessResult bad =
      run_process({ucut::test_paths::cli_path(), "report", dir.file("r1.db"), dir.file("missing.db")},
                  ProcessOptions::with_timeout(60));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("missing.db"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace ucut::report
