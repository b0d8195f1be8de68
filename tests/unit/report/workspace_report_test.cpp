// tests/unit/report/workspace_report_test.cpp — the report's data model (report/workspace_report.h) on the
// hand-computed workspace of report_fixture.h: per-problem counts and times, geomeans with and without
// integrity filtering, fast_p and its failed-problem rule, attempt-fast_p, bottlenecks, time shares, the replay.
#include "report/workspace_report.h"

#include <gtest/gtest.h>

#include <cmath>

#include "report/format.h"
#include "report_fixture.h"

namespace ucut::report {
namespace {

using testing::TempDir;

class ReportModel : public ::testing::Test {
 protected:
  void SetUp() override {
    store::Workspace ws = store::Workspace::open(dir.file("w.db"));
    testing::suite_workspace(ws);
    r = build_report(ws, std::nullopt);
  }
  const ProblemReport& p(const std::string& id) const {
    for (const ProblemReport& q : r.problems)
      if (q.id == id) return q;
    throw std::runtime_error("no problem " + id);
  }
  TempDir dir;
  WorkspaceReport r;
};

TEST_F(ReportModel, CountsAttemptsPerProblem) {
  ASSERT_EQ(r.problems.size(), 4u);
  EXPECT_EQ(r.problems[0].id, "A");
  const ProblemReport& a = p("A");
  EXPECT_EQ(a.attempts, 4);
  EXPECT_EQ(a.measured, 2);  // the seed and the flagged one: both measured and correct
  EXPECT_EQ(a.failed, 1);
  EXPECT_EQ(a.flagged, 1);
  EXPECT_EQ(a.pending, 1);
  EXPECT_EQ(p("C").failed, 2);
  EXPECT_EQ(p("C").measured, 0);
}

TEST_F(ReportModel, SeedBestAndNaiveBest) {
  EXPECT_EQ(p("A").seed_ms, 1.0);
  EXPECT_EQ(p("A").best_ms, 1.0);      // the flagged 0.5 ms does not count
  EXPECT_EQ(p("A").best_any_ms, 0.5);  // but a naive harness would take it
  EXPECT_EQ(p("A").speedup, 2.0);
  EXPECT_EQ(p("A").speedup_any, 4.0);
  EXPECT_EQ(p("B").seed_ms, 2.0);
  EXPECT_EQ(p("B").best_ms, 0.8);
  EXPECT_DOUBLE_EQ(*p("B").speedup, 1.25);
  EXPECT_FALSE(p("C").best_ms);
  EXPECT_FALSE(p("C").speedup);
  EXPECT_FALSE(p("C").seed_ms);  // a wrong seed has no time worth showing
}

TEST_F(ReportModel, SolGapIntensityAndThroughputPerProblem) {
  const ProblemReport& a = p("A");
  EXPECT_DOUBLE_EQ(*a.gap, 2.0);  // 1.0 / 0.5
  EXPECT_DOUBLE_EQ(*a.sol_pct, 50.0);
  EXPECT_DOUBLE_EQ(*a.intensity, 1000.0);        // 1e9 / 1e6
  EXPECT_DOUBLE_EQ(*a.achieved_tflops, 1.0);     // 1e9 FLOP in 1 ms
  EXPECT_DOUBLE_EQ(a.build_seconds, 60.0);
  EXPECT_DOUBLE_EQ(a.profile_seconds, 30.0);
  EXPECT_FALSE(p("C").gap);
}

TEST_F(ReportModel, ProblemsWithoutBaselineAreLeftOut) {
  EXPECT_EQ(r.no_baseline, (std::vector<std::string>{"D"}));
  EXPECT_EQ(r.scored, 3);
  EXPECT_FALSE(p("D").speedup);
  EXPECT_EQ(p("D").best_ms, 1.0);
}

TEST_F(ReportModel, GeomeanWithAndWithoutIntegrityFiltering) {
  // A 2, B 1.25, C (no counting attempt) 1; unfiltered A takes its flagged 4.
  EXPECT_DOUBLE_EQ(r.geomean_filtered, std::cbrt(2.5));
  EXPECT_DOUBLE_EQ(r.geomean_unfiltered, std::cbrt(5.0));
  EXPECT_NEAR(r.inflation, std::cbrt(2.0), 1e-12);
}

TEST_F(ReportModel, FastPCountsProblemsWithoutCountingAttemptAsFailed) {
  ASSERT_EQ(r.fast_p.size(), 5u);
  std::vector<double> filtered, unfiltered;
  for (const FastP& f : r.fast_p) {
    filtered.push_back(f.filtered);
    unfiltered.push_back(f.unfiltered);
  }
  // p = 0, 1, 1.5, 2, 5. C never counts, even at p = 0.
  EXPECT_EQ(filtered, (std::vector<double>{2.0 / 3, 2.0 / 3, 1.0 / 3, 0, 0}));
  EXPECT_EQ(unfiltered, (std::vector<double>{2.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 3, 0}));
  EXPECT_EQ(fast_share({}, 1), 0);
  EXPECT_EQ(fast_share({std::nullopt, 3.0}, 0), 0.5);
}

TEST_F(ReportModel, FastPCurveIsTheSameFunction) {
  ASSERT_FALSE(r.curve_filtered.empty());
  EXPECT_EQ(r.curve_filtered.front().x, 0);
  EXPECT_EQ(r.curve_filtered.front().y, 2.0 / 3);
  EXPECT_EQ(r.curve_filtered.back().x, 5.0);  // max(2, ceil(4 · 1.25 · 2) / 2)
  EXPECT_EQ(r.curve_unfiltered.back().y, 0);
  for (const CurvePoint& c : r.curve_filtered) {
    std::vector<std::optional<double>> s = {2.0, 1.25, std::nullopt};
    EXPECT_EQ(c.y, fast_share(s, c.x));
  }
}

TEST_F(ReportModel, AttemptFastPOverFinishedAttempts) {
  // A: seed beats the baseline at once; B only with its 2nd attempt; C never. A's 3 finished attempts set k's range.
  EXPECT_EQ(r.budget, 3);
  ASSERT_EQ(r.attempt_fast_p.size(), 3u);
  EXPECT_EQ(r.attempt_fast_p[0].x, 1);
  EXPECT_EQ(r.attempt_fast_p[0].y, 1.0 / 3);
  EXPECT_EQ(r.attempt_fast_p[1].y, 2.0 / 3);
  EXPECT_EQ(r.attempt_fast_p[2].y, 2.0 / 3);
}

TEST_F(ReportModel, BottleneckAtFirstAndLastAnalyzedIteration) {
  const ProblemReport& a = p("A");
  ASSERT_TRUE(a.first && a.last);
  EXPECT_EQ(a.first->iteration, 1);
  EXPECT_EQ(a.first->cls, sol::Bottleneck::memory_bandwidth);
  EXPECT_EQ(a.first->source, sol::BottleneckSource::roofline);
  EXPECT_EQ(a.last->iteration, 3);
  EXPECT_EQ(a.last->cls, sol::Bottleneck::compute);
  EXPECT_EQ(a.last->source, sol::BottleneckSource::ncu);
  EXPECT_FALSE(p("B").first);
}

TEST_F(ReportModel, CompileThroughputAndTimeShares) {
  EXPECT_EQ(r.time.kernels_built, 3);
  EXPECT_DOUBLE_EQ(r.time.build_seconds, 120.0);
  EXPECT_DOUBLE_EQ(r.time.kernels_per_minute, 1.5);
  EXPECT_DOUBLE_EQ(r.time.run_seconds, 30.0);
  EXPECT_DOUBLE_EQ(r.time.profile_seconds, 30.0);
  EXPECT_NEAR(r.time.build_pct, 200.0 / 3, 1e-9);
  EXPECT_NEAR(r.time.run_pct, 50.0 / 3, 1e-9);
  EXPECT_NEAR(r.time.profile_pct, 50.0 / 3, 1e-9);
  // The loop's wall-clock rate: run 1 (one hour) finished and built the 3 kernels; run 2 has no end time.
  EXPECT_EQ(r.time.finished_runs, 1);
  EXPECT_DOUBLE_EQ(r.time.wall_seconds, 3600.0);
  EXPECT_EQ(r.time.wall_kernels, 3);
  EXPECT_DOUBLE_EQ(r.time.kernels_per_wall_minute, 0.05);
  std::string sentence = throughput_sentence(r.time);
  EXPECT_NE(sentence.find("0.05 per minute of wall-clock (3 kernels in the 3600 s of 1 finished run)"),
            std::string::npos)
      << sentence;
  EXPECT_NE(sentence.find("1.50 per minute of one nvcc (120 nvcc-seconds"), std::string::npos) << sentence;
}

TEST_F(ReportModel, RunsAndUnfinishedRun) {
  ASSERT_EQ(r.runs.size(), 2u);
  EXPECT_EQ(r.runs[0].finished, "2026-12-01T11:00:00Z");
  EXPECT_EQ(r.runs[1].finished, "unfinished");
  EXPECT_EQ(r.runs[1].command, "ucutlass optimize suite/ --budget 4");
}

TEST_F(ReportModel, ReplaysTheGridOverFinishedAttempts) {
  ASSERT_TRUE(r.grid);
  EXPECT_EQ(r.grid->points.size(), 1 + kGridEps.size() * kGridWindows.size());
  const sched::GridPoint& fixed = r.grid->points[0];
  EXPECT_EQ(fixed.policy, sched::fixed_policy(3));
  EXPECT_EQ(fixed.attempts, 8);  // A 3, B 2, C 2, D 1: the pending attempt is not replayed
  EXPECT_DOUBLE_EQ(fixed.geomean, r.geomean_filtered);
  EXPECT_FALSE(r.grid->frontier.empty());
}

TEST(ReportModelEmpty, EmptyWorkspaceHasNeutralFigures) {
  TempDir dir;
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  WorkspaceReport r = build_report(ws, std::nullopt);
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.geomean_filtered, 1);
  EXPECT_EQ(r.inflation, 1);
  EXPECT_FALSE(r.grid);
  EXPECT_TRUE(r.attempt_fast_p.empty());
  EXPECT_EQ(r.time.kernels_per_minute, 0);
  EXPECT_NE(throughput_sentence(r.time).find("no finished run"), std::string::npos);
}

}  // namespace
}  // namespace ucut::report
