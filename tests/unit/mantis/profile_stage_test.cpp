// tests/unit/mantis/profile_stage_test.cpp — engine/mantis/profile_stage.h through the loop, with the fake executor:
// Analyze takes the ncu class when the profile read counters and the roofline position otherwise (storing why),
// the profile time is charged to the best attempt, and a best attempt is profiled once: a resumed run reads back
// a profile with counters, the same run reads back one without, a new run tries again.
#include "engine/mantis/profile_stage.h"

#include <gtest/gtest.h>

#include "../export/export_cases.h"
#include "../temp_dir.h"
#include "fake_executor.h"
#include "subjects.h"
#include "suite/lower.h"
#include "support/files.h"

namespace ucut::mantis {
namespace {

using testing::FakeExecutor;
using ucut::testing::TempDir;


engine::ProfileOutcome latency_bound() {
  engine::ProfileOutcome o;
  o.counters = true;
  o.bottleneck = sol::Bottleneck::memory_latency;
  o.reason = "memory-latency-bound or under-utilized: every unit below its τ";
  o.report = {{"profile", {{"bottleneck", "memory_latency"}}}};
  o.seconds = 3;
  return o;
}

struct Fixture {
  TempDir dir{"ucut-mantis-profile"};
  store::Workspace ws = store::Workspace::open(dir.file("w.db"));
  Subject s = testing::square_matmul("compute");
  Fixture() { ws.upsert_problem(s.row); }

  /// The stage `name` of `iteration` in `run`, parsed (the last one stored).
  nlohmann::json stage(int64_t run, int iteration, const std::string& name) {
    nlohmann::json found;
    for (const store::StageRow& st : ws.stages(s.row.id, run))
      if (st.iteration == iteration && enum_name(st.stage) == name) found = nlohmann::json::parse(st.json);
    return found;
  }
  store::AttemptRow seed() { return ws.attempts(s.row.id).front(); }
};

TEST(MantisProfile, AnalyzeUsesTheNcuClassWhenCountersWereRead) {
  Fixture f;
  int64_t run = f.ws.begin_run({});
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  ex.canned_profile = latency_bound();
  Loop loop(f.ws, ex, run, Options{});
  loop.step(f.s, nullptr);
  EXPECT_TRUE(ex.profiled.empty());  // the seed's turn measures only
  loop.step(f.s, nullptr);

  nlohmann::json analyze = f.stage(run, 1, "analyze");
  EXPECT_EQ(analyze["bottleneck"], "memory_latency");
  EXPECT_EQ(analyze["bottleneck_source"], "ncu");
  EXPECT_FALSE(analyze.contains("profile_degraded"));
  nlohmann::json profile = f.stage(run, 1, "measure")["profile"];
  EXPECT_EQ(profile["config_hash"], f.seed().config_hash);
  EXPECT_EQ(profile["reused"], false);
  EXPECT_EQ(profile["outcome"]["report"]["profile"]["bottleneck"], "memory_latency");
  EXPECT_EQ(ex.profiled[f.seed().config_hash], 1);
  // The profile's time is the best attempt's.
  EXPECT_DOUBLE_EQ(f.seed().profile_seconds, 3);
  EXPECT_DOUBLE_EQ(f.seed().gpu_seconds, 0.5 + 3);
  // Nominate aimed its hypotheses at the profiled class.
  for (const store::HypothesisRow& h : f.ws.hypotheses(f.s.row.id))
    EXPECT_EQ(h.bottleneck, sol::Bottleneck::memory_latency);
}

TEST(MantisProfile, WithoutCountersAnalyzeKeepsTheRooflineAndSaysWhy) {
  Fixture f;
  int64_t run = f.ws.begin_run({});
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  Loop loop(f.ws, ex, run, Options{});
  loop.step(f.s, nullptr);
  loop.step(f.s, nullptr);
  nlohmann::json analyze = f.stage(run, 1, "analyze");
  EXPECT_EQ(analyze["bottleneck"], "compute");
  EXPECT_EQ(analyze["bottleneck_source"], "roofline");
  EXPECT_EQ(analyze["profile_degraded"], "the fake executor has no profiler");
  EXPECT_EQ(f.stage(run, 1, "measure")["profile"]["outcome"]["counters"], false);
}

TEST(MantisProfile, SwitchedOffNothingIsProfiled) {
  Fixture f;
  int64_t run = f.ws.begin_run({});
  std::map<std::string, int> counts;
  FakeExecutor ex(&counts);
  ex.canned_profile = latency_bound();
  Options o;
  o.profile = false;
  Loop loop(f.ws, ex, run, o);
  loop.step(f.s, nullptr);
  loop.step(f.s, nullptr);
  EXPECT_TRUE(ex.profiled.empty());
  nlohmann::json analyze = f.stage(run, 1, "analyze");
  EXPECT_EQ(analyze["bottleneck"], "compute");
  EXPECT_EQ(analyze["bottleneck_source"], "roofline");
  EXPECT_FALSE(analyze.contains("profile_degraded"));
  EXPECT_FALSE(f.stage(run, 1, "measure").contains("profile"));
}

TEST(MantisProfile, AResumedRunReadsBackTheBestAttemptsProfile) {
  Fixture f;
  std::map<std::string, int> counts;
  int64_t first_run = f.ws.begin_run({});
  FakeExecutor ex(&counts);
  ex.canned_profile = latency_bound();
  ex.slow_from = 1;  // every candidate is slower than the seed: the seed stays the best attempt
  {
    Loop loop(f.ws, ex, first_run, Options{});
    loop.step(f.s, nullptr);
    ex.die_after = ex.calls + 2;  // killed inside iteration 1's third attempt, after Measure profiled the seed
    EXPECT_THROW(loop.step(f.s, nullptr), std::runtime_error);
  }
  ASSERT_EQ(ex.profiled[f.seed().config_hash], 1);

  int64_t second_run = f.ws.begin_run({});
  FakeExecutor again(&counts);
  again.canned_profile = latency_bound();
  again.slow_from = 0;
  Loop loop(f.ws, again, second_run, Options{});
  IterationResult r = loop.step(f.s, nullptr);
  EXPECT_EQ(r.iteration, 1);
  EXPECT_TRUE(again.profiled.empty());
  nlohmann::json profile = f.stage(second_run, 1, "measure")["profile"];
  EXPECT_EQ(profile["reused"], true);
  EXPECT_EQ(profile["run"], first_run);
  EXPECT_EQ(f.stage(second_run, 1, "analyze")["bottleneck_source"], "ncu");
  EXPECT_DOUBLE_EQ(f.seed().profile_seconds, 3);  // charged once
}

TEST(MantisProfile, AProfileWithoutCountersIsTriedAgainOnlyInANewRun) {
  Fixture f;
  std::map<std::string, int> counts;
  int64_t first_run = f.ws.begin_run({});
  FakeExecutor ex(&counts);
  ex.slow_from = 1;
  Loop loop(f.ws, ex, first_run, Options{});
  loop.step(f.s, nullptr);
  loop.step(f.s, nullptr);
  loop.step(f.s, nullptr);  // iteration 2: the same best, its degraded profile read back
  EXPECT_EQ(ex.profiled[f.seed().config_hash], 1);
  EXPECT_EQ(f.stage(first_run, 2, "measure")["profile"]["reused"], true);

  FakeExecutor on_a_gpu_machine(&counts);
  on_a_gpu_machine.canned_profile = latency_bound();
  on_a_gpu_machine.slow_from = 0;
  int64_t second_run = f.ws.begin_run({});
  Loop resumed(f.ws, on_a_gpu_machine, second_run, Options{});
  IterationResult r = resumed.step(f.s, nullptr);
  EXPECT_EQ(r.iteration, 3);
  EXPECT_EQ(on_a_gpu_machine.profiled[f.seed().config_hash], 1);
  EXPECT_EQ(f.stage(second_run, 3, "analyze")["bottleneck"], "memory_latency");
}

}  // namespace
}  // namespace ucut::mantis
