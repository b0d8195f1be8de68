// tests/unit/store/workspace_kill_test.cpp — a writer killed with SIGKILL mid-stream leaves a workspace that
// passes integrity_check, holds every attempt and hypothesis either untouched or fully written, and takes
// new writes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "fixture.h"
#include "store/workspace.h"

namespace ucut::store {
namespace {

using namespace testing;

/// A flag that tells attempt `i` from its neighbours.
FlagId flag_of(int i) {
  constexpr auto flags = enum_names(FlagId{}).names;
  return flags[static_cast<size_t>(i) % flags.size()].value;
}

/// The child: claims, finishes and summarizes attempts as fast as it can, until killed.
[[noreturn]] void write_forever(const std::string& path, int64_t run) {
  try {
    Workspace ws = Workspace::open(path);
    for (int i = 0;; ++i) {
      HypothesisRow h = sample_hypothesis("p1", run, "{\"i\":" + std::to_string(i) + "}");
      h.iteration = i;
      h.id = ws.add_hypothesis(h);
      AttemptRow a = sample_attempt("p1", run, "hash-" + std::to_string(i));
      a.iteration = i;
      a.hypothesis_id = h.id;
      a = measured(ws.claim_attempt(a), i + 0.5);
      a.flags = {flag_of(i)};
      a.tokens = i;
      ws.finish_attempt(a);
      h.status = HypothesisStatus::done;
      h.measured_speedup = i;
      ws.update_hypothesis(h);
    }
  } catch (...) {
    _exit(1);
  }
}

void expect_consistent(const AttemptRow& a) {
  SCOPED_TRACE("attempt " + std::to_string(a.id));
  EXPECT_EQ(a.config_hash, "hash-" + std::to_string(a.iteration));
  EXPECT_TRUE(a.hypothesis_id.has_value());
  if (a.status == AttemptStatus::pending) {
    EXPECT_FALSE(a.correct);
    EXPECT_FALSE(a.time_ms);
    EXPECT_TRUE(a.flags.empty());
    EXPECT_TRUE(a.result_json.empty());
    EXPECT_EQ(a.tokens, 0);
    return;
  }
  EXPECT_EQ(a.status, AttemptStatus::measured);
  EXPECT_TRUE(a.correct);
  EXPECT_EQ(a.time_ms, a.iteration + 0.5);
  EXPECT_EQ(a.flags, std::vector<FlagId>{flag_of(a.iteration)});
  EXPECT_EQ(a.result_json, measured(a, a.iteration + 0.5).result_json);
  EXPECT_EQ(a.tokens, a.iteration);
  EXPECT_EQ(a.gpu_seconds, 1.75);
}

void expect_consistent(const HypothesisRow& h) {
  SCOPED_TRACE("hypothesis " + std::to_string(h.id));
  EXPECT_EQ(h.move_json, "{\"i\":" + std::to_string(h.iteration) + "}");
  if (h.status == HypothesisStatus::nominated) {
    EXPECT_FALSE(h.measured_speedup);
  } else {
    EXPECT_EQ(h.status, HypothesisStatus::done);
    EXPECT_EQ(h.measured_speedup, h.iteration);
  }
}

TEST(WorkspaceKill, SigkilledWriterLeavesAConsistentWorkspace) {
  TempDir dir;
  std::string path = dir.file("w.db");
  int64_t run = 0;
  {
    Workspace ws = Workspace::open(path);  // closed before the fork: a connection must not cross it
    ws.upsert_problem(sample_problem("p1"));
    run = ws.begin_run(sample_run());
  }
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) write_forever(path, run);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself, status " << status;

  Workspace ws = Workspace::open(path);
  Statement check(ws.connection(), "PRAGMA integrity_check");
  ASSERT_TRUE(check.step());
  EXPECT_EQ(check.text(0), "ok");
  EXPECT_FALSE(check.step());

  std::vector<AttemptRow> attempts = ws.attempts("p1");
  ASSERT_GT(attempts.size(), 0u) << "the writer wrote nothing in 200 ms";
  for (const AttemptRow& a : attempts) expect_consistent(a);
  EXPECT_LE(ws.pending_attempts().size(), 1u);  // at most the one in flight
  for (const HypothesisRow& h : ws.hypotheses("p1")) expect_consistent(h);

  // The interrupted attempt (if any) is re-run, and new work goes on.
  for (AttemptRow a : ws.pending_attempts()) ws.finish_attempt(measured(a, a.iteration + 0.5));
  AttemptRow next = ws.claim_attempt(sample_attempt("p1", run, "after-kill"));
  EXPECT_EQ(next.status, AttemptStatus::pending);
  ws.finish_attempt(measured(next, 0.01));
  EXPECT_EQ(ws.best_attempt("p1")->config_hash, "after-kill");
  EXPECT_TRUE(ws.pending_attempts().empty());
}

}  // namespace
}  // namespace ucut::store
