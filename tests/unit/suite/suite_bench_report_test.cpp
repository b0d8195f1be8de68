// tests/unit/suite/suite_bench_report_test.cpp — the scores and pages of `bench kernelbench` (driver/suite_bench.h)
// on hand-made rows: speedups against torch.compile are scored only when it was timed, so a run with --no-compile
// says "not timed" instead of fast_p 0.
#include <gtest/gtest.h>

#include "driver/suite_bench.h"

namespace ucut {
namespace {

SuiteBenchReport two_rows(bool with_compile) {
  SuiteBenchReport r;
  r.gpu_name = "NVIDIA H200";
  for (double ours : {1.0, 0.5}) {
    SuiteBenchRow row;
    row.problem = ours == 1.0 ? "P1" : "P2";
    row.family = "gemm";
    row.status = "measured";
    row.correct = true;
    row.ours_ms = ours;
    row.eager_ms = 2.0;
    if (with_compile) row.compile_ms = 1.0;
    r.rows.push_back(row);
  }
  score_suite_bench(r);
  return r;
}

TEST(SuiteBenchScores, EagerAlwaysCompileOnlyWhenTimed) {
  SuiteBenchReport r = two_rows(false);
  ASSERT_TRUE(r.eager.geomean);
  EXPECT_DOUBLE_EQ(*r.eager.geomean, std::sqrt(2.0 * 4.0));
  EXPECT_FALSE(r.compile);
  EXPECT_FALSE(r.compile_filtered);
  std::string md = suite_bench_markdown(r, "ucutlass bench kernelbench --no-compile");
  EXPECT_NE(md.find("| vs torch.compile | — | — | not timed"), std::string::npos) << md;
  EXPECT_EQ(md.find("| vs torch.compile | 2 |"), std::string::npos) << md;
  nlohmann::json j = suite_bench_json(r);
  EXPECT_TRUE(j["scores"]["vs_compile"].is_null());
  EXPECT_EQ(j["scores"]["vs_eager"]["correct"], 2);
}

TEST(SuiteBenchScores, CompileScoredWhenTimed) {
  SuiteBenchReport r = two_rows(true);
  ASSERT_TRUE(r.compile);
  ASSERT_TRUE(r.compile->geomean);
  EXPECT_DOUBLE_EQ(*r.compile->geomean, std::sqrt(1.0 * 2.0));
  EXPECT_DOUBLE_EQ(r.compile->fast_p[1], 0.5);  // fast_1: only P2 is more than 1x faster
  std::string md = suite_bench_markdown(r, "ucutlass bench kernelbench");
  EXPECT_NE(md.find("| vs torch.compile | 2 | 2 |"), std::string::npos) << md;
  EXPECT_EQ(suite_bench_json(r)["scores"]["vs_compile"]["problems"], 2);
}

}  // namespace
}  // namespace ucut
