// tests/unit/report/real_workspace_test.cpp — the report of the workspace recorded on an H200
// (bench/results/optimize/w.db: 4 KernelBench problems, 44 attempts, one pending, one run unfinished), read from a
// temp copy.
#include <gtest/gtest.h>

#include <filesystem>

#include "../test_paths.h"
#include "report/html.h"
#include "report/workspace_report.h"
#include "report_fixture.h"

namespace ucut::report {
namespace {

const std::string kRecorded = ucut::test_paths::source_dir() + "/bench/results/optimize/w.db";

TEST(ReportRealWorkspace, BuildsFromACopy) {
  ASSERT_TRUE(std::filesystem::exists(kRecorded)) << kRecorded;
  testing::TempDir dir;
  std::filesystem::copy_file(kRecorded, dir.file("w.db"));
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  WorkspaceReport r = build_report(ws, RooflineGpu{"h200", "H200", 494.7, 989.4, 4.8});
  ASSERT_EQ(r.problems.size(), 4u);
  int attempts = 0, pending = 0;
  for (const ProblemReport& p : r.problems) {
    attempts += p.attempts;
    pending += p.pending;
    EXPECT_TRUE(p.best_ms) << p.id;
    EXPECT_TRUE(p.last) << p.id;
  }
  EXPECT_EQ(attempts, 44);
  EXPECT_EQ(pending, 1);
  EXPECT_EQ(r.scored, 4);
  EXPECT_EQ(r.runs.back().finished, "unfinished");
  EXPECT_EQ(r.measured_on, std::vector<std::string>{"NVIDIA H200 (driver 580.159.04 (CUDA 13.0))"});
  EXPECT_TRUE(r.grid);
  EXPECT_GT(r.geomean_filtered, 1);
  EXPECT_GT(r.time.kernels_per_minute, 0);
  EXPECT_NE(render_html(r).find("L2_001_conv2d_relu_biasadd"), std::string::npos);
}

}  // namespace
}  // namespace ucut::report
