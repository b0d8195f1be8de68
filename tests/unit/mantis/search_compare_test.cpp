// tests/unit/mantis/search_compare_test.cpp — the search baselines and their comparison: `optimize --search
// exhaustive` with `--knobs` measures every valid config of the limited space once, `--search random` draws distinct
// ones, RecordedExecutor answers from a recording, and search_compare replays the proposer and random search on it.
#include "workflow/search_compare.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "../export/export_cases.h"
#include "../temp_dir.h"
#include "workflow/optimize.h"
#include "engine/recorded_executor.h"
#include "engine/search/random_search.h"
#include "fake_executor.h"
#include "store/workspace.h"

namespace ucut {
namespace {

namespace fs = std::filesystem;
using mantis::testing::FakeExecutor;

/// An exhaustive recording of two GEMM problems' tile × cluster space at tolerance 1e-2, from generated seeds
/// (on a machine without a GPU: only their seeds, compiled and pending).
struct Recording {
  ucut::testing::TempDir tmp{"ucut-search-compare"};
  OptimizeOptions o;
  std::map<std::string, int> counts;
  OptimizeReport report;
  explicit Recording(bool gpu = true) {
    fs::path root = golden::source_dir();
    o.paths = {(root / "suites/kernelbench/level1/L1_001_square_matmul.toml").string(),
               (root / "suites/kernelbench/level1/L1_002_matmul.toml").string()};
    o.workspace = (tmp.path() / "exhaustive.db").string();
    o.seeds_dir = "";
    o.baseline = "";
    o.tolerance = 1e-2;
    o.mantis.search = mantis::Search::exhaustive;
    o.mantis.knobs = {"tile", "cluster"};
    o.policy = *sched::parse_policy("fixed", 1000, nullptr);
    o.command = "ucutlass optimize L1_001 L1_002 --search exhaustive";
    FakeExecutor ex(&counts);
    ex.no_gpu = !gpu;
    report = optimize(o, ex, nullptr);
  }

  /// Options comparing the searches on this recording, replayed in a folder of its own.
  SearchCompareOptions compare(int budget, int random_seeds) const {
    SearchCompareOptions c;
    c.recorded = o.workspace;
    c.budget = budget;
    c.random_seeds = random_seeds;
    c.workdir = (tmp.path() / "replay").string();
    return c;
  }
};

TEST(SearchBaselines, ExhaustiveMeasuresEveryConfigOfTheLimitedSpaceOnce) {
  Recording rec;
  ASSERT_TRUE(rec.report.message.empty()) << rec.report.message;
  store::Workspace ws = store::Workspace::open(rec.o.workspace);
  for (const store::ProblemRow& p : ws.problems()) {
    EXPECT_DOUBLE_EQ(p.tolerance, 1e-2);
    std::vector<store::AttemptRow> attempts = ws.attempts(p.id);
    ASSERT_FALSE(attempts.empty());
    // The generated seed multiplies in TF32: the relaxed tolerance admits it (as a labelled precision change).
    EXPECT_NE(attempts.front().spec.find("math = tf32)"), std::string::npos) << attempts.front().spec;
    auto lowered = lower_problem_file(p.path, 1e-2);
    ASSERT_TRUE(std::holds_alternative<LoweredProblem>(lowered));
    search::Context ctx;
    ctx.problem = &std::get<LoweredProblem>(lowered).problem;
    ctx.knobs = {"tile", "cluster"};
    search::SearchResult space = search::enumerate_space(attempts.front().spec, ctx, SIZE_MAX);
    EXPECT_GT(space.total, 8u);
    EXPECT_EQ(attempts.size(), space.total) << p.id;
    std::set<std::string> hashes;
    for (const store::AttemptRow& a : attempts) {
      hashes.insert(a.config_hash);
      // Only the tile and the cluster moved.
      EXPECT_EQ(a.spec.find("with_tile_scheduler"), std::string::npos);
      EXPECT_EQ(a.spec.find("with_stages"), std::string::npos);
    }
    EXPECT_EQ(hashes.size(), attempts.size());
  }
  // Both problems share the row-major TF32 kernels: each config was measured once per problem.
  for (const auto& [hash, n] : rec.counts) EXPECT_EQ(n, 2) << hash;
}

TEST(SearchBaselines, RandomDrawsDistinctConfigsOfTheSameSpace) {
  ucut::testing::TempDir tmp{"ucut-search-random"};
  OptimizeOptions o;
  o.paths = {(golden::source_dir() / "suites/kernelbench/level1/L1_002_matmul.toml").string()};
  o.workspace = (tmp.path() / "random.db").string();
  o.seeds_dir = "";
  o.baseline = "";
  o.tolerance = 1e-2;
  o.mantis.search = mantis::Search::random;
  o.mantis.knobs = {"tile", "cluster"};
  o.policy = *sched::parse_policy("fixed", 9, nullptr);
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  OptimizeReport r = optimize(o, ex, nullptr);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].attempts, 9);  // the seed, then 8 per iteration until the budget
  store::Workspace ws = store::Workspace::open(o.workspace);
  for (const store::AttemptRow& a : ws.attempts("L1_002_matmul"))
    EXPECT_TRUE(a.proposer == "seed" || a.proposer == "random") << a.proposer;
  for (const auto& [hash, n] : counts) EXPECT_EQ(n, 1) << hash;
}

TEST(SearchBaselines, RecordedExecutorAnswersFromTheRecordingAndCountsMisses) {
  Recording rec;
  store::Workspace ws = store::Workspace::open(rec.o.workspace);
  engine::RecordedExecutor ex(ws);
  EXPECT_EQ(ex.recorded(), static_cast<size_t>(rec.report.attempts_this_run));
  store::AttemptRow seed = ws.attempts("L1_001_square_matmul").front();
  auto lowered = lower_problem_file(seed.spec.empty() ? "" : ws.problem("L1_001_square_matmul")->path, 1e-2);
  const Problem& harness = std::get<LoweredProblem>(lowered).problem;
  engine::CandidateOutcome o = ex.measure(seed.spec, harness);
  EXPECT_EQ(o.status, store::AttemptStatus::measured);
  ASSERT_TRUE(o.time_ms);
  EXPECT_DOUBLE_EQ(*o.time_ms, *seed.time_ms);
  std::string other = seed.spec;
  other.replace(other.find("math = tf32"), 11, "math = tf32x3");  // outside the recorded space
  engine::CandidateOutcome miss = ex.measure(other, harness);
  EXPECT_EQ(miss.status, store::AttemptStatus::check_failed);
  EXPECT_NE(miss.error.find("not in the recording"), std::string::npos) << miss.error;
  EXPECT_EQ(ex.misses(), 1);
}

TEST(SearchBaselines, AStoredOutcomeReadsBackAsTheSameOutcome) {
  engine::CandidateOutcome o;
  o.config_hash = "abc123";
  o.status = store::AttemptStatus::measured;
  o.correct = true;
  o.time_ms = 0.25;
  o.flags = {FlagId::faster_than_sol};
  o.flagged = true;
  o.precision_change = true;
  o.error = "note";
  o.report = {{"stopped_at", ""}, {"shapes", 1}};
  o.build_seconds = 41.5;
  o.run_seconds = 2.5;
  store::AttemptRow a;
  a.config_hash = o.config_hash;
  engine::store_outcome(o, a);
  EXPECT_EQ(a.gpu_seconds, 2.5);
  engine::CandidateOutcome back = engine::stored_outcome(a);
  EXPECT_EQ(back.config_hash, o.config_hash);
  EXPECT_EQ(back.status, o.status);
  EXPECT_EQ(back.correct, o.correct);
  EXPECT_EQ(back.time_ms, o.time_ms);
  EXPECT_EQ(back.flags, o.flags);
  EXPECT_EQ(back.flagged, o.flagged);
  EXPECT_EQ(back.precision_change, o.precision_change);
  EXPECT_EQ(back.error, o.error);
  EXPECT_EQ(back.report, o.report);
  EXPECT_EQ(back.build_seconds, o.build_seconds);
  EXPECT_EQ(back.run_seconds, o.run_seconds);
  a.result_json = "not json";
  EXPECT_EQ(engine::stored_outcome(a).report, nlohmann::json::object());
}

TEST(SearchCompare, ReplaysTheProposerAndRandomSearchOnTheRecording) {
  Recording rec;
  SearchCompareOptions o = rec.compare(12, 300);
  store::Workspace recorded = store::Workspace::open_read_only(rec.o.workspace);
  EXPECT_EQ(search_compare_unready(o, recorded), "");
  SearchCompareReport r = search_compare(o, recorded);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_TRUE(r.compared_any());
  EXPECT_EQ(r.knobs, "tile, cluster");
  ASSERT_EQ(r.rows.size(), 2u);
  store::Workspace ws = store::Workspace::open(rec.o.workspace);
  for (const SearchCompareRow& row : r.rows) {
    ASSERT_TRUE(row.skipped.empty()) << row.problem << ": " << row.skipped;
    std::vector<store::AttemptRow> attempts = ws.attempts(row.problem);
    EXPECT_EQ(row.space, attempts.size());
    double best = 1e9;
    for (const store::AttemptRow& a : attempts) best = std::min(best, *a.time_ms);
    EXPECT_DOUBLE_EQ(row.best_ms, best);
    EXPECT_GE(row.good, 1u);
    EXPECT_GE(row.exhaustive_attempts, 1);
    EXPECT_LE(row.exhaustive_attempts, static_cast<int>(row.space));
    // 300 random orders average close to the exact expectation.
    EXPECT_NEAR(row.random_mean, row.random_expected, 0.25 * row.random_expected) << row.problem;
    EXPECT_LE(row.random_median, row.random_p90);
    EXPECT_GT(row.proposer_used, 1);
    EXPECT_LE(row.proposer_used, 12);
    EXPECT_EQ(row.proposer_misses, 0) << row.problem;  // the proposer stayed in the recorded space
    EXPECT_GT(row.proposer_best_fraction, 0);
    EXPECT_LE(row.proposer_best_fraction, 1.0 + 1e-12);
    if (row.proposer_attempts) EXPECT_LE(*row.proposer_attempts, row.proposer_used);
  }
  std::string md = search_compare_markdown(r);
  EXPECT_NE(md.find("| L1_001_square_matmul |"), std::string::npos) << md;
  nlohmann::json j = search_compare_json(r);
  EXPECT_EQ(j["schema"], "ucutlass.search_compare/1");
  EXPECT_EQ(j["problems"].size(), 2u);
}

TEST(SearchCompare, WhatTheRecordingLacksIsSaidFirstWithTheCommandThatRecordsIt) {
  ucut::testing::TempDir tmp{"ucut-search-compare-none"};
  SearchCompareOptions o;
  o.recorded = (tmp.path() / "w.db").string();
  { store::Workspace::open(o.recorded); }
  auto unready = [&] {
    store::Workspace ws = store::Workspace::open_read_only(o.recorded);
    return search_compare_unready(o, ws);
  };
  std::string why = unready();
  EXPECT_NE(why.find("holds no run"), std::string::npos) << why;
  EXPECT_NE(
      why.find("ucutlass optimize PROBLEMS --workspace " + o.recorded + " --search exhaustive --knobs KNOBS"),
      std::string::npos)
      << why;

  // A proposer run is not a recording of the whole space.
  OptimizeOptions run;
  run.paths = {(golden::source_dir() / "suites/kernelbench/level1/L1_002_matmul.toml").string()};
  run.workspace = o.recorded;
  run.seeds_dir = run.baseline = "";
  run.policy = *sched::parse_policy("fixed", 1, nullptr);
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  optimize(run, ex, nullptr);
  why = unready();
  EXPECT_NE(why.find("holds no exhaustive run (1 run, searched by proposer)"), std::string::npos) << why;

  // An exhaustive run recorded where nothing could be timed: resume it with its own command.
  Recording pending(false);
  ASSERT_TRUE(pending.report.needs_gpu);
  o.recorded = pending.o.workspace;
  why = unready();
  EXPECT_NE(why.find("has measured nothing yet (2 attempts wait, compiled but not timed)"), std::string::npos)
      << why;
  EXPECT_NE(why.find("`ucutlass optimize L1_001 L1_002 --search exhaustive`"), std::string::npos) << why;

  Recording rec;
  o.recorded = rec.o.workspace;
  EXPECT_EQ(unready(), "");
  o.gpu = "h201";
  EXPECT_NE(unready().find("unknown GPU `h201`"), std::string::npos);
}

TEST(SearchCompare, AProblemThatCannotBeComparedSaysWhy) {
  Recording rec;
  {
    // The recording lost one of L1_002's configs (an interrupted exhaustive run).
    store::Workspace ws = store::Workspace::open(rec.o.workspace);
    ws.connection().exec(
        "DELETE FROM attempts WHERE id = (SELECT max(id) FROM attempts WHERE problem_id = 'L1_002_matmul')");
  }
  SearchCompareOptions o = rec.compare(4, 10);
  store::Workspace recorded = store::Workspace::open_read_only(rec.o.workspace);
  SearchCompareReport r = search_compare(o, recorded);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_TRUE(r.rows[0].skipped.empty()) << r.rows[0].skipped;
  EXPECT_NE(r.rows[1].skipped.find("the recording lacks 1 of the space's"), std::string::npos)
      << r.rows[1].skipped;
  EXPECT_TRUE(r.compared_any());
  r.rows.erase(r.rows.begin());
  EXPECT_FALSE(r.compared_any());
}

}  // namespace
}  // namespace ucut
