// tests/unit/mantis/loop_test.cpp — engine/mantis/loop.h over the real workspace, proposer and problems, with a
// fake executor: every stage is stored, budgets per iteration hold, a run killed mid-attempt resumes without
// measuring anything twice, the ablation switches do what they say, and no GPU leaves the attempt pending.
#include "engine/mantis/loop.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "../export/export_cases.h"
#include "../temp_dir.h"
#include "engine/search/seed_spec.h"
#include "fake_executor.h"
#include "subjects.h"
#include "suite/lower.h"
#include "support/files.h"

namespace ucut::mantis {
namespace {

using testing::FakeExecutor;
using ucut::testing::TempDir;



struct Fixture {
  TempDir dir{"ucut-mantis"};
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  Subject s = testing::square_matmul("unknown");  // every move family applies (a 2.x spec has few compute moves)
  int64_t run = 0;
  Fixture() {
    ws.upsert_problem(s.row);
    run = ws.begin_run({});
  }
  std::set<std::string> stages(int iteration) {
    std::set<std::string> names;
    for (const store::StageRow& st : ws.stages(s.row.id, run))
      if (st.iteration == iteration) names.insert(std::string(enum_name(st.stage)));
    return names;
  }
};

TEST(MantisLoop, SeedThenAnIterationStoresEveryStage) {
  Fixture f;
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  Loop loop(f.ws, ex, f.run, Options{});
  EXPECT_EQ(loop.next_iteration(f.s.row.id), 0);
  IterationResult seed = loop.step(f.s, nullptr);
  EXPECT_EQ(seed.iteration, 0);
  EXPECT_EQ(seed.attempts, 1);
  ASSERT_TRUE(f.ws.best_attempt(f.s.row.id));
  EXPECT_EQ(f.ws.attempts(f.s.row.id)[0].proposer, "seed");

  IterationResult it = loop.step(f.s, nullptr);
  EXPECT_EQ(it.iteration, 1);
  EXPECT_FALSE(it.exhausted);
  EXPECT_GT(it.attempts, 0);
  EXPECT_LE(it.attempts, 2 * 4);  // hypotheses x attempts
  EXPECT_EQ(f.stages(1), (std::set<std::string>{"measure", "analyze", "nominate", "triage", "implement", "summarize"}));
  int chosen = 0;
  for (const store::HypothesisRow& h : f.ws.hypotheses(f.s.row.id)) {
    EXPECT_TRUE(h.status == store::HypothesisStatus::done || h.status == store::HypothesisStatus::dropped)
        << enum_name(h.status);
    chosen += h.status == store::HypothesisStatus::done;
    if (h.status == store::HypothesisStatus::done) EXPECT_TRUE(h.measured_speedup.has_value());
  }
  EXPECT_EQ(chosen, 2);
  EXPECT_EQ(ex.prebuilt, static_cast<size_t>(it.attempts));  // every candidate compiled ahead of measurement
  EXPECT_FALSE(f.ws.lessons("gemm", "square-large", "sm90a", 10).empty());
  for (const auto& [hash, n] : counts) EXPECT_EQ(n, 1) << hash;
  EXPECT_EQ(loop.next_iteration(f.s.row.id), 2);
}

// A pipeline problem: its seed is its own pipeline (engine/search/seed_spec.h), and an iteration moves it one stage
// at a time; every attempt is the whole pipeline, measured once.
TEST(MantisLoop, APipelineProblemIsSearchedStageByStage) {
  TempDir dir{"ucut-mantis-pipe"};
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  auto checked = golden::load_suite_problem("suites/kernelbench/level2/L2_099_matmul_gelu_softmax.toml");
  ASSERT_TRUE(checked);
  auto lowered = suite::lower_to_problem(*checked);
  ASSERT_TRUE(std::holds_alternative<Problem>(lowered)) << std::get<std::string>(lowered);
  Subject s;
  s.harness = std::get<Problem>(lowered);
  auto seed = search::seed_spec(*checked, s.harness);
  ASSERT_TRUE(std::holds_alternative<search::SeedSpec>(seed)) << std::get<std::string>(seed);
  s.seed_spec = std::get<search::SeedSpec>(seed).spec;
  s.row.id = checked->problem.stem;
  s.row.family = "gemm";
  s.row.shape_class = "pipeline";
  s.row.sol_tf32_ms = 0.3;
  s.row.sol_fp16_ms = 0.15;
  ws.upsert_problem(s.row);
  const int64_t run = ws.begin_run({});
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  Loop loop(ws, ex, run, Options{});
  loop.step(s, nullptr);
  IterationResult it = loop.step(s, nullptr);
  EXPECT_GT(it.attempts, 0);
  std::set<std::string> stages;
  for (const store::AttemptRow& a : ws.attempts(s.row.id)) {
    EXPECT_EQ(a.status, store::AttemptStatus::measured) << a.spec;
    if (a.proposer == "seed") continue;
    EXPECT_NE(a.spec.find("pipeline seed_pipeline_gemm_rownorm"), std::string::npos) << a.spec;
    for (const store::HypothesisRow& h : ws.hypotheses(s.row.id))
      if (a.hypothesis_id && h.id == *a.hypothesis_id) stages.insert(nlohmann::json::parse(h.move_json).value("stage", ""));
  }
  EXPECT_FALSE(stages.empty());
  for (const std::string& st : stages) EXPECT_TRUE(st == "s1" || st == "s2") << st;
  for (const auto& [hash, n] : counts) EXPECT_EQ(n, 1) << hash;
}

TEST(MantisLoop, AKilledIterationResumesWithoutMeasuringAnythingTwice) {
  Fixture f;
  std::map<std::string, int> counts;
  {
    FakeExecutor ex(&counts);
    Loop loop(f.ws, ex, f.run, Options{});
    loop.step(f.s, nullptr);
    ex.die_after = ex.calls + 3;  // dies inside the 4th attempt of iteration 1, after claiming it
    EXPECT_THROW(loop.step(f.s, nullptr), std::runtime_error);
  }
  std::vector<store::AttemptRow> before = f.ws.attempts(f.s.row.id);
  int pending = 0;
  for (const store::AttemptRow& a : before) pending += a.status == store::AttemptStatus::pending;
  EXPECT_EQ(pending, 1);

  FakeExecutor again(&counts);
  Loop loop(f.ws, again, f.ws.begin_run({}), Options{});
  EXPECT_EQ(loop.next_iteration(f.s.row.id), 1);  // iteration 1 is resumed, not skipped
  IterationResult r = loop.step(f.s, nullptr);
  EXPECT_EQ(r.iteration, 1);
  for (const store::AttemptRow& a : f.ws.attempts(f.s.row.id)) EXPECT_NE(a.status, store::AttemptStatus::pending);
  for (const auto& [hash, n] : counts) EXPECT_EQ(n, 1) << hash;
  std::set<std::string> hashes;
  for (const store::AttemptRow& a : f.ws.attempts(f.s.row.id)) EXPECT_TRUE(hashes.insert(a.config_hash).second);
}

// A workspace measured by an older ucutlass: an attempt whose spec emits other code today is measured again once,
// by the next run; one that emits the same code, or that recorded no code hash (before schema 3), is not.
TEST(MantisLoop, AnAttemptOfCodeTheSpecNoLongerEmitsIsMeasuredAgain) {
  Fixture f;
  std::map<std::string, int> counts;
  {
    FakeExecutor ex(&counts);
    Loop loop(f.ws, ex, f.run, Options{});
    loop.step(f.s, nullptr);
    loop.step(f.s, nullptr);
  }
  std::vector<store::AttemptRow> measured = f.ws.attempts(f.s.row.id);
  ASSERT_GE(measured.size(), 3u);
  for (const store::AttemptRow& a : measured) EXPECT_EQ(a.code_hash, engine::spec_code_hash(a.spec));
  store::AttemptRow stale = measured[1], unrecorded = measured[2];
  stale.code_hash = std::string(64, 'a');  // what an older emitter produced for this spec
  unrecorded.code_hash = "";
  f.ws.finish_attempt(stale);
  f.ws.finish_attempt(unrecorded);

  std::map<std::string, int> again_counts;
  FakeExecutor again(&again_counts);
  Loop loop(f.ws, again, f.ws.begin_run({}), Options{});
  loop.step(f.s, nullptr);
  EXPECT_EQ(again_counts[stale.config_hash], 1);       // measured again, in place
  EXPECT_EQ(again_counts[unrecorded.config_hash], 0);  // unknown code: kept
  EXPECT_EQ(again_counts[measured[0].config_hash], 0);
  store::AttemptRow now = *f.ws.find_attempt(f.s.row.id, stale.config_hash);
  EXPECT_EQ(now.id, stale.id);
  EXPECT_EQ(now.status, store::AttemptStatus::measured);
  EXPECT_EQ(now.code_hash, engine::spec_code_hash(now.spec));
  // Once per run: a second step does not check again (nothing is stale any more, and nothing is measured twice).
  loop.step(f.s, nullptr);
  EXPECT_EQ(again_counts[stale.config_hash], 1);
}

TEST(MantisLoop, TheCallerCanStopAnIteration) {
  Fixture f;
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  Loop loop(f.ws, ex, f.run, Options{});
  loop.step(f.s, nullptr);
  int seen = 0;
  IterationResult r = loop.step(f.s, [&](const store::AttemptRow&) { return ++seen < 2; });
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.attempts, 2);
}

TEST(MantisLoop, AblationsSwitchTriageAndSummarizeOff) {
  Fixture f;
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  Options o;
  o.triage = false;
  o.summarize = false;
  o.sol = false;
  Loop loop(f.ws, ex, f.run, o);
  loop.step(f.s, nullptr);
  loop.step(f.s, nullptr);
  EXPECT_TRUE(f.ws.lessons("gemm", "square-large", "sm90a", 10).empty());
  std::vector<store::HypothesisRow> hs = f.ws.hypotheses(f.s.row.id);
  ASSERT_GE(hs.size(), 2u);
  // Without Triage the first two nominated are the chosen ones, whatever their ROI.
  EXPECT_EQ(hs[0].status, store::HypothesisStatus::done);
  EXPECT_EQ(hs[1].status, store::HypothesisStatus::done);
  for (size_t i = 2; i < hs.size(); ++i) EXPECT_EQ(hs[i].status, store::HypothesisStatus::dropped);
  for (const store::StageRow& st : f.ws.stages(f.s.row.id, f.run))
    if (st.stage == store::Stage::analyze) EXPECT_EQ(nlohmann::json::parse(st.json)["gap"], 0.0);
}

TEST(MantisLoop, WithoutAGpuTheAttemptWaitsPending) {
  Fixture f;
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  ex.no_gpu = true;
  Loop loop(f.ws, ex, f.run, Options{});
  IterationResult r = loop.step(f.s, nullptr);
  EXPECT_TRUE(r.needs_gpu);
  EXPECT_EQ(r.note, "no CUDA device");
  ASSERT_EQ(f.ws.attempts(f.s.row.id).size(), 1u);
  EXPECT_EQ(f.ws.attempts(f.s.row.id)[0].status, store::AttemptStatus::pending);
}

}  // namespace
}  // namespace ucut::mantis
