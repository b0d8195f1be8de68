// tests/unit/suite/suite_bench_report_test.cpp — the scores and pages of `bench kernelbench`
// (workflow/suite_bench.h) on hand-made rows: speedups against torch.compile are scored only when it was
// timed, so a run with --no-compile says "not timed" instead of fast_p 0; reports read back from JSON and
// combined over runs of different problems; the page's provenance (runs, PyTorch sessions) is a collapsed
// table; filtering fails flagged and weak-check rows without shrinking the denominator; the first sentence
// counts the precision changes.
#include <gtest/gtest.h>

#include "workflow/suite_bench.h"

namespace ucut {
namespace {

SuiteBenchReport two_rows(bool with_compile) {
  SuiteBenchReport r;
  r.gpu_name = "NVIDIA H200";
  for (double ours : {1.0, 0.5}) {
    SuiteBenchRow row;
    row.problem = ours == 1.0 ? "P1" : "P2";
    row.family = "gemm";
    row.status = SuiteRowStatus::measured;
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

TEST(SuiteBenchScores, FilteringFailsFlaggedAndWeakCheckRowsAndKeepsTheDenominator) {
  SuiteBenchReport r = two_rows(false);
  r.rows[0].weak_check = {"output_near_constant"};
  r.rows[1].flagged = true;
  score_suite_bench(r);
  EXPECT_EQ(r.eager.correct, 2);
  EXPECT_EQ(r.eager_filtered.problems, 2);
  EXPECT_EQ(r.eager_filtered.correct, 0);
  EXPECT_DOUBLE_EQ(r.eager_filtered.fast_p[0], 0.0);
  EXPECT_EQ(suite_bench_json(r)["scores"]["vs_eager_filtered"]["problems"], 2);
  std::string md = suite_bench_markdown(r, "ucutlass bench kernelbench");
  EXPECT_NE(md.find("| vs eager, filtered | 2 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("the denominator stays"), std::string::npos) << md;
}

TEST(SuiteBenchScores, TheFirstSentenceCountsPrecisionChanges) {
  SuiteBenchReport r = two_rows(false);
  EXPECT_NE(suite_bench_markdown(r, "c").find(
                "All 2 measured problems use the operand precision their problem states."),
            std::string::npos);
  r.rows[1].precision_change = true;
  SuiteBenchRow missing;
  missing.problem = "P3";
  missing.status = SuiteRowStatus::no_implementation;
  r.rows.push_back(missing);
  std::string md = suite_bench_markdown(r, "c");
  EXPECT_NE(md.find("**1 of 2 measured problems use bf16 or TF32 operands against FP32 eager**"),
            std::string::npos)
      << md;
  EXPECT_LT(md.find("1 of 2 measured"), md.find("GPU NVIDIA H200"));
}

/// A run's report as written to kernelbench.json and read back.
SuiteBenchReport round_trip(const SuiteBenchReport& r) { return suite_bench_from_json(suite_bench_json(r)); }

TEST(SuiteBenchCombine, JsonRoundTripKeepsRowsAndScores) {
  SuiteBenchReport r = two_rows(true);
  r.rows[1].flags = {FlagId::faster_than_sol};
  r.rows[1].flagged = true;
  r.rows[0].weak_check = {"output_near_constant"};
  score_suite_bench(r);
  SuiteBenchReport back = round_trip(r);
  EXPECT_EQ(suite_bench_json(back).dump(), suite_bench_json(r).dump());
  EXPECT_THROW(suite_bench_from_json(nlohmann::json{{"gpu", "x"}}), std::runtime_error);
}

TEST(SuiteBenchCombine, RowsOfSeveralRunsScoredTogether) {
  SuiteBenchReport a = two_rows(false), b = two_rows(false);
  a.date = "2026-12-02T10:00:00Z";
  b.date = "2026-12-02T11:00:00Z";
  b.rows[0].problem = "P3";
  b.rows[1].problem = "P4";
  b.rows[1].correct = false;  // a failure stays one
  b.torch_meta = {{"torch", "2.11"}};
  SuiteBenchReport c = combine_suite_bench({round_trip(a), round_trip(b)});
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.eager.problems, 4);
  EXPECT_EQ(c.eager.correct, 3);
  ASSERT_TRUE(c.eager.geomean);
  EXPECT_NEAR(*c.eager.geomean, std::cbrt(2.0 * 4.0 * 2.0), 1e-12);  // over the correct ones
  EXPECT_EQ(c.date, b.date);
  ASSERT_EQ(c.parts.size(), 2u);
  EXPECT_EQ(c.parts[1], "2026-12-02T11:00:00Z (2 problems)");
  std::string md = suite_bench_markdown(c, "ucutlass bench kernelbench --combine a.json b.json");
  EXPECT_NE(md.find("Combined from 2 runs"), std::string::npos) << md;
  EXPECT_EQ(c.torch_meta.size(), 2u);
}

TEST(SuiteBenchCombine, RefusesDuplicatesOtherGpusAndOtherConditions) {
  SuiteBenchReport a = two_rows(false), b = two_rows(false);
  EXPECT_THROW(combine_suite_bench({a, b}), std::runtime_error);  // P1 twice
  b.rows[0].problem = "P3";
  b.rows[1].problem = "P4";
  EXPECT_NO_THROW(combine_suite_bench({a, b}));
  SuiteBenchReport other_gpu = b;
  other_gpu.gpu_name = "NVIDIA H100";
  EXPECT_THROW(combine_suite_bench({a, other_gpu}), std::runtime_error);
  SuiteBenchReport other_tolerance = b;
  other_tolerance.conditions = "tolerance 0.0001";
  EXPECT_THROW(combine_suite_bench({a, other_tolerance}), std::runtime_error);
  EXPECT_THROW(combine_suite_bench({}), std::runtime_error);
}

TEST(SuiteBenchCombine, ARunWithoutAnImplementationGivesWayToTheRunThatMeasured) {
  SuiteBenchReport a = two_rows(false), b = two_rows(false);
  b.rows[0].status = SuiteRowStatus::no_implementation;  // b never ran P1; a measured it
  b.rows[1].problem = "P3";
  SuiteBenchReport c = combine_suite_bench({a, b});
  ASSERT_EQ(c.rows.size(), 3u);
  EXPECT_EQ(c.rows[0].status, SuiteRowStatus::measured);
  EXPECT_EQ(c.eager.problems, 3);
  SuiteBenchReport only_unattempted = two_rows(false);
  for (SuiteBenchRow& row : only_unattempted.rows) {
    row.status = SuiteRowStatus::no_implementation;
    row.correct = false;
    row.ours_ms = 0;
  }
  SuiteBenchReport d = combine_suite_bench({only_unattempted, only_unattempted});  // nobody measured: one failure each
  EXPECT_EQ(d.rows.size(), 2u);
  EXPECT_EQ(d.eager.correct, 0);
}

// --newest-wins: the newer run's row replaces the older one whatever its result (here a slower one), given in
// either order, and the report names the replaced row.
TEST(SuiteBenchCombine, NewestWinsTakesTheNewerRowAndListsTheReplacedOne) {
  SuiteBenchReport older = two_rows(false), newer = two_rows(false);
  older.date = "2026-12-02T10:00:00Z";
  newer.date = "2026-12-03T10:00:00Z";
  newer.rows.pop_back();      // the newer run re-measured P1 only
  newer.rows[0].ours_ms = 4;  // and found it slower: 0.5x
  for (const auto& runs : {std::vector<SuiteBenchReport>{older, newer}, std::vector<SuiteBenchReport>{newer, older}}) {
    SuiteBenchReport c = combine_suite_bench(runs, true);
    ASSERT_EQ(c.rows.size(), 2u);
    EXPECT_EQ(c.rows[0].problem, "P1");
    EXPECT_DOUBLE_EQ(c.rows[0].ours_ms, 4);
    ASSERT_TRUE(c.eager.geomean);
    EXPECT_NEAR(*c.eager.geomean, std::sqrt(0.5 * 4.0), 1e-12);
    ASSERT_EQ(c.replaced.size(), 1u);
    EXPECT_EQ(c.replaced[0], "P1 of 2026-12-02T10:00:00Z (replaced by the run of 2026-12-03T10:00:00Z)");
    EXPECT_NE(suite_bench_markdown(c, "x").find("replaced by a newer run"), std::string::npos);
    EXPECT_EQ(round_trip(c).replaced, c.replaced);
  }
  EXPECT_THROW(combine_suite_bench({older, newer}), std::runtime_error);  // without the flag: a duplicate
}

/// What bench/kernelbench/baseline.py records of one PyTorch session.
nlohmann::json torch_session(const std::string& started, const std::string& problems_dir) {
  return {{"command",
           "bench/kernelbench/baseline.py suites/kernelbench/level1/L1_001_square_matmul.toml "
           "suites/kernelbench/level1/L1_002_matmul.toml --out " +
               problems_dir + " --jobs 1 --no-compile"},
          {"compile", false},
          {"environment",
           {{"cuda", "13.0"},
            {"cuda_matmul_allow_tf32", false},
            {"cudnn", 91900},
            {"cudnn_allow_tf32", true},
            {"torch", "2.11.0+cu130"}}},
          {"started", started},
          {"trials", 100},
          {"warmup", 3}};
}

// The provenance of the runs (the PyTorch sessions' commands list every problem file: 33 KB in a report of 18
// runs) is a collapsed table with a row per session, a nested combination listing each of its runs, not JSON
// inline in the header.
TEST(SuiteBenchMarkdown, ProvenanceIsACollapsedTableOfRunsAndSessions) {
  SuiteBenchReport a = two_rows(false), b1 = two_rows(false), b2 = two_rows(false), d = two_rows(false);
  a.date = "2026-12-02T10:00:00Z";
  a.torch_meta = torch_session("2026-12-02T09:00:00Z", "/tmp/a/torch");
  b1.date = "2026-12-03T10:00:00Z";
  b1.torch_meta = torch_session("2026-12-03T09:00:00Z", "/tmp/b1/torch");
  b2.date = "2026-12-03T11:00:00Z";
  b2.torch_meta = torch_session("2026-12-03T10:30:00Z", "/tmp/b2|x/torch");
  for (SuiteBenchRow& row : b1.rows) row.problem += "b1";
  for (SuiteBenchRow& row : b2.rows) row.problem += "b2";
  for (SuiteBenchRow& row : d.rows) row.problem += "d";
  d.date = "2026-12-04T10:00:00Z";  // PyTorch not timed
  SuiteBenchReport b = combine_suite_bench({b1, b2});
  SuiteBenchReport c = combine_suite_bench({round_trip(a), round_trip(b), round_trip(d)});
  std::string md =
      suite_bench_markdown(c, "ucutlass bench kernelbench --combine a.json b.json d.json --out all");
  EXPECT_EQ(md.find("{\""), std::string::npos) << md;  // no JSON in the page
  EXPECT_NE(
      md.find(
          "Combined from 4 runs; each problem's kernel and PyTorch were timed side by side in one of them "
          "(provenance below)"),
      std::string::npos)
      << md;
  std::string session =
      " | torch 2.11.0+cu130, CUDA 13.0, cuDNN 91900; TF32: matmul off, cuDNN on | eager, 100 "
      "trials after 3 warm-up | 2: L1_001_square_matmul, L1_002_matmul | "
      "`bench/kernelbench/baseline.py <2 problem files> --out ";
  std::string want =
      "<details><summary>Provenance: 4 runs, 3 PyTorch sessions</summary>\n\n"
      "| run | measured | PyTorch started | PyTorch | timed | problems timed | PyTorch command |\n"
      "|---|---|---|---|---|---|---|\n"
      "| 1 | 2026-12-02T10:00:00Z (2 problems) | 2026-12-02T09:00:00Z" +
      session +
      "/tmp/a/torch --jobs 1 --no-compile` |\n"
      "| 2 | 2026-12-03T10:00:00Z (2 problems) | 2026-12-03T09:00:00Z" +
      session +
      "/tmp/b1/torch --jobs 1 --no-compile` |\n"
      "| 3 | 2026-12-03T11:00:00Z (2 problems) | 2026-12-03T10:30:00Z" +
      session +
      "/tmp/b2\\|x/torch --jobs 1 --no-compile` |\n"
      "| 4 | 2026-12-04T10:00:00Z (2 problems) | not timed | — | — | — | — |\n"
      "\n</details>\n\n";
  EXPECT_NE(md.find(want), std::string::npos) << md;
  SuiteBenchReport single = two_rows(false);
  single.date = "2026-12-02T10:00:00Z";
  single.commit = "1a2b3c4d5e6f";
  single.torch_meta = torch_session("2026-12-02T09:00:00Z", "/tmp/a/torch");
  md = suite_bench_markdown(single, "ucutlass bench kernelbench --impl x");
  EXPECT_NE(md.find("; PyTorch timed in the same run (provenance below)."), std::string::npos) << md;
  EXPECT_NE(md.find("| 1 | 2026-12-02T10:00:00Z (2 problems, ucutlass 1a2b3c4d5e6f) | 2026-12-02T09:00:00Z" +
                    session),
            std::string::npos)
      << md;
}

// A run records the commit ucutlass was built from; a combined report names it with the run's date. Reports
// written before it was recorded have none, and their JSON stays as it was.
TEST(SuiteBenchCombine, EachRunsCommitIsKept) {
  SuiteBenchReport a = two_rows(false), b = two_rows(false);
  a.date = "2026-12-02T10:00:00Z";
  a.commit = "1a2b3c4d5e6f-dirty";
  b.date = "2026-12-02T11:00:00Z";
  b.rows[0].problem = "P3";
  b.rows[1].problem = "P4";
  EXPECT_EQ(suite_bench_json(a)["commit"], "1a2b3c4d5e6f-dirty");
  EXPECT_FALSE(suite_bench_json(b).contains("commit"));
  SuiteBenchReport c = combine_suite_bench({round_trip(a), round_trip(b)});
  EXPECT_EQ(c.parts,
            (std::vector<std::string>{"2026-12-02T10:00:00Z (2 problems, ucutlass 1a2b3c4d5e6f-dirty)",
                                      "2026-12-02T11:00:00Z (2 problems)"}));
  EXPECT_TRUE(c.commit.empty());  // it measured nothing
}

// A combined report combined again keeps every original run (date, commit, command) and its PyTorch session,
// and
// --newest-wins compares each row's own date: the row a combined report carries from an older run loses to a
// re-measurement that is newer than that row, though older than the combined report's newest run.
TEST(SuiteBenchCombine, NestedCombinesKeepEveryRunAndCompareRowDates) {
  SuiteBenchReport a = two_rows(false), b = two_rows(false), c = two_rows(false);
  a.date = "2026-12-01T10:00:00Z";
  a.commit = "aaaa";
  a.command = "ucutlass bench kernelbench --impl A --tolerance 0.01";
  a.torch_meta = {{"torch", "2.10"}};
  b.date = "2026-12-03T10:00:00Z";
  b.command = "ucutlass bench kernelbench --impl B";
  b.torch_meta = {{"torch", "2.11"}};
  b.rows[0].problem = "P3";
  b.rows[1].problem = "P4";
  c.date = "2026-12-02T10:00:00Z";  // re-measures P1 after a's run, before b's
  c.command = "ucutlass bench kernelbench --impl C --only P1";
  c.torch_meta = {{"torch", "2.11"}};
  c.rows.resize(1);
  c.rows[0].ours_ms = 0.25;
  SuiteBenchReport ab = round_trip(combine_suite_bench({round_trip(a), round_trip(b)}));
  EXPECT_EQ(ab.date, b.date);
  SuiteBenchReport all = combine_suite_bench({ab, round_trip(c)}, true);
  EXPECT_EQ(all.parts,
            (std::vector<std::string>{
                "2026-12-01T10:00:00Z (2 problems, ucutlass aaaa): ucutlass bench kernelbench --impl A "
                "--tolerance 0.01",
                "2026-12-03T10:00:00Z (2 problems): ucutlass bench kernelbench --impl B",
                "2026-12-02T10:00:00Z (1 problems): ucutlass bench kernelbench --impl C --only P1"}));
  ASSERT_EQ(all.torch_meta.size(), 3u);
  EXPECT_EQ(all.torch_meta[0]["torch"], "2.10");
  ASSERT_EQ(all.rows.size(), 4u);
  EXPECT_EQ(all.rows[0].problem, "P1");
  EXPECT_DOUBLE_EQ(all.rows[0].ours_ms, 0.25);  // c's row: newer than a's, which ab carried
  EXPECT_EQ(all.rows[0].measured, c.date);
  EXPECT_EQ(all.rows[1].measured, a.date);
  ASSERT_EQ(all.replaced.size(), 1u);
  EXPECT_EQ(all.replaced[0], "P1 of 2026-12-01T10:00:00Z (replaced by the run of 2026-12-02T10:00:00Z)");
  // Read back, the rows keep their own dates.
  EXPECT_EQ(round_trip(all).rows[1].measured, a.date);
}

}  // namespace
}  // namespace ucut
