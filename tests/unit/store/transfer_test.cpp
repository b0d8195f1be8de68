// tests/unit/store/transfer_test.cpp — store/transfer.h: export of all runs or a delta, refusing to
// overwrite, from a read-only workspace left as it is; import of disjoint and overlapping workspaces,
// pending-vs-final replacement, hypothesis id remapping, lesson deduplication, a run finished after a first
// import, a second import that adds nothing, and an older file migrated in memory and left as it is.
#include "store/transfer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fixture.h"
#include "store/schema.h"
#include "support/files.h"

namespace ucut::store {
namespace {

using namespace testing;

int64_t count(Workspace& ws, const std::string& table) {
  Statement s(ws.connection(), "SELECT count(*) FROM " + table);
  s.step();
  return s.int64(0);
}

/// One run's worth of rows for `problem`: a hypothesis, a measured attempt implementing it, a lesson, a
/// stage.
struct Filled {
  int64_t run = 0, hypothesis = 0, attempt = 0;
};

Filled fill(Workspace& ws, const std::string& problem, const std::string& tag) {
  Filled f;
  if (!ws.problem(problem)) ws.upsert_problem(sample_problem(problem));
  f.run = ws.begin_run(sample_run("ucutlass optimize " + tag));
  f.hypothesis = ws.add_hypothesis(sample_hypothesis(problem, f.run, R"({"move":")" + tag + "\"}"));
  AttemptRow a = sample_attempt(problem, f.run, "hash-" + tag);
  a.hypothesis_id = f.hypothesis;
  a = measured(ws.claim_attempt(a), 1.0);
  ws.finish_attempt(a);
  f.attempt = a.id;
  ws.add_lesson(sample_lesson(problem, f.run, "lesson " + tag));
  ws.add_stage(sample_stage(problem, f.run, Stage::measure));
  return f;
}

void expect_counts(const TableCounts& c, int64_t added, int64_t skipped, int64_t replaced,
                   const char* table) {
  SCOPED_TRACE(table);
  EXPECT_EQ(c.added, added);
  EXPECT_EQ(c.skipped, skipped);
  EXPECT_EQ(c.replaced, replaced);
}

TEST(TransferExport, CopiesEverythingWithIdsAndRefusesToOverwrite) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("main.db"));
  fill(ws, "p1", "a");
  fill(ws, "p2", "b");
  ws.claim_attempt(sample_attempt("p2", 2, "pending"));
  TransferCounts c = export_workspace(ws, dir.file("out.db"));
  expect_counts(c.problems, 2, 0, 0, "problems");
  expect_counts(c.runs, 2, 0, 0, "runs");
  expect_counts(c.attempts, 3, 0, 0, "attempts");
  expect_counts(c.hypotheses, 2, 0, 0, "hypotheses");
  expect_counts(c.lessons, 2, 0, 0, "lessons");
  expect_counts(c.stages, 2, 0, 0, "stages");

  Workspace out = Workspace::open(dir.file("out.db"));
  ASSERT_EQ(out.problems().size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(fields(out.problems()[i]), fields(ws.problems()[i]));
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(fields(out.runs()[i]), fields(ws.runs()[i]));
  for (const char* p : {"p1", "p2"}) {
    ASSERT_EQ(out.attempts(p).size(), ws.attempts(p).size());
    for (size_t i = 0; i < ws.attempts(p).size(); ++i)
      EXPECT_EQ(fields(out.attempts(p)[i]), fields(ws.attempts(p)[i]));
    EXPECT_EQ(fields(out.hypotheses(p).at(0)), fields(ws.hypotheses(p).at(0)));
  }
  EXPECT_EQ(fields(out.stages("p2", 2).at(0)), fields(ws.stages("p2", 2).at(0)));
  EXPECT_EQ(out.lessons("gemm", "square-large", "sm90a", 10).size(), 2u);

  try {
    export_workspace(ws, dir.file("out.db"));
    FAIL() << "overwrote an existing file";
  } catch (const WorkspaceError& e) {
    EXPECT_NE(std::string(e.what()).find(dir.file("out.db") + "': the file exists"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(export_workspace(ws, dir.file("absent/out.db")), WorkspaceError);
}

TEST(TransferExport, FromAReadOnlyWorkspaceLeavesItAsItIs) {
  TempDir dir;
  {
    Workspace ws = Workspace::open(dir.file("main.db"));
    fill(ws, "p1", "a");
  }
  std::string before = read_file(dir.file("main.db")).value();
  Workspace ws = Workspace::open_read_only(dir.file("main.db"));
  TransferCounts c = export_workspace(ws, dir.file("out.db"));
  expect_counts(c.attempts, 1, 0, 0, "attempts");
  EXPECT_EQ(Workspace::open(dir.file("out.db")).attempts("p1").size(), 1u);
  EXPECT_EQ(read_file(dir.file("main.db")), before);
  EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"main.db", "out.db"}));
}

TEST(TransferExport, SinceRunIdExportsTheDelta) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("main.db"));
  Filled old = fill(ws, "p1", "old");
  Filled unrelated = fill(ws, "p2", "unrelated");
  Filled fresh = fill(ws, "p1", "new");
  // The new run implements a hypothesis nominated in the first one.
  AttemptRow late = sample_attempt("p1", fresh.run, "late");
  late.hypothesis_id = old.hypothesis;
  ws.claim_attempt(late);

  TransferCounts c = export_workspace(ws, dir.file("delta.db"), unrelated.run);
  expect_counts(c.problems, 2, 0, 0, "problems");
  expect_counts(c.runs, 2, 0, 0, "runs");  // the new run, and the first one for its hypothesis
  expect_counts(c.hypotheses, 2, 0, 0, "hypotheses");
  expect_counts(c.attempts, 2, 0, 0, "attempts");
  expect_counts(c.lessons, 1, 0, 0, "lessons");
  expect_counts(c.stages, 1, 0, 0, "stages");

  Workspace out = Workspace::open(dir.file("delta.db"));
  std::vector<RunRow> runs = out.runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].id, old.run);
  EXPECT_EQ(runs[1].id, fresh.run);
  EXPECT_TRUE(out.attempts("p2").empty());
  EXPECT_TRUE(out.stages("p1", old.run).empty());
  EXPECT_EQ(out.attempts("p1").size(), 2u);
  EXPECT_EQ(out.lessons("gemm", "square-large", "sm90a", 10).at(0).text, "lesson new");
}

TEST(TransferImport, DisjointWorkspacesMerge) {
  TempDir dir;
  Workspace a = Workspace::open(dir.file("a.db"));
  Workspace b = Workspace::open(dir.file("b.db"));
  fill(a, "pa", "a1");
  fill(a, "pa", "a2");
  fill(b, "pb", "b1");
  export_workspace(a, dir.file("a-out.db"));
  TransferCounts c = import_workspace(b, dir.file("a-out.db"));
  expect_counts(c.problems, 1, 0, 0, "problems");
  expect_counts(c.runs, 2, 0, 0, "runs");
  expect_counts(c.hypotheses, 2, 0, 0, "hypotheses");
  expect_counts(c.attempts, 2, 0, 0, "attempts");
  expect_counts(c.lessons, 2, 0, 0, "lessons");
  expect_counts(c.stages, 2, 0, 0, "stages");

  ASSERT_EQ(b.problems().size(), 2u);
  EXPECT_EQ(b.problems()[1].id, "pa");
  std::vector<RunRow> runs = b.runs();
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[1].command, "ucutlass optimize a1");  // new ids after b's own run
  EXPECT_EQ(runs[1].id, 2);
  std::vector<AttemptRow> got = b.attempts("pa");
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].run_id, 2);
  EXPECT_EQ(got[1].run_id, 3);
  EXPECT_EQ(b.stages("pa", 3).size(), 1u);
  EXPECT_EQ(b.best_attempt("pa")->config_hash, "hash-a1");
}

TEST(TransferImport, OverlappingAttemptsAndPendingVersusFinal) {
  TempDir dir;
  Workspace a = Workspace::open(dir.file("a.db"));
  Workspace b = Workspace::open(dir.file("b.db"));
  for (Workspace* ws : {&a, &b}) ws->upsert_problem(sample_problem("p1"));
  int64_t run_a = a.begin_run(sample_run("on machine a"));
  int64_t run_b = b.begin_run(sample_run("on machine b"));
  auto put = [](Workspace& ws, int64_t run, const std::string& hash, std::optional<double> ms) {
    AttemptRow r = ws.claim_attempt(sample_attempt("p1", run, hash));
    if (ms) ws.finish_attempt(measured(r, *ms));
  };
  put(a, run_a, "final-both", 2.0);
  put(b, run_b, "final-both", 3.0);
  put(a, run_a, "pending-in-b", 1.0);
  put(b, run_b, "pending-in-b", std::nullopt);
  put(a, run_a, "pending-in-a", std::nullopt);
  put(b, run_b, "pending-in-a", 5.0);
  put(a, run_a, "only-a", 4.0);
  AttemptRow pending_before = *b.find_attempt("p1", "pending-in-b");

  export_workspace(a, dir.file("a-out.db"));
  TransferCounts c = import_workspace(b, dir.file("a-out.db"));
  expect_counts(c.problems, 0, 1, 0, "problems");
  expect_counts(c.runs, 1, 0, 0, "runs");
  expect_counts(c.attempts, 1, 2, 1, "attempts");

  EXPECT_EQ(b.find_attempt("p1", "final-both")->time_ms, 3.0);
  EXPECT_EQ(b.find_attempt("p1", "pending-in-a")->time_ms, 5.0);
  AttemptRow replaced = *b.find_attempt("p1", "pending-in-b");
  EXPECT_EQ(replaced.id, pending_before.id);  // replaced in place
  EXPECT_EQ(replaced.status, AttemptStatus::measured);
  EXPECT_EQ(replaced.time_ms, 1.0);
  EXPECT_EQ(replaced.run_id, b.runs().at(1).id);  // the imported run
  EXPECT_EQ(b.best_attempt("p1")->config_hash, "pending-in-b");
  EXPECT_TRUE(b.pending_attempts().empty());
  EXPECT_EQ(b.attempts("p1").size(), 4u);
}

TEST(TransferImport, RemapsHypothesisIds) {
  TempDir dir;
  Workspace a = Workspace::open(dir.file("a.db"));
  Workspace b = Workspace::open(dir.file("b.db"));
  Filled fa = fill(a, "p1", "from-a");
  fill(b, "p1", "b1");
  fill(b, "p1", "b2");
  export_workspace(a, dir.file("a-out.db"));
  import_workspace(b, dir.file("a-out.db"));

  std::vector<HypothesisRow> hyps = b.hypotheses("p1");
  ASSERT_EQ(hyps.size(), 3u);
  const HypothesisRow& moved = hyps[2];
  EXPECT_EQ(moved.move_json, R"({"move":"from-a"})");
  EXPECT_NE(moved.id, fa.hypothesis);
  EXPECT_EQ(moved.run_id, b.runs().at(2).id);
  AttemptRow attempt = *b.find_attempt("p1", "hash-from-a");
  EXPECT_EQ(attempt.hypothesis_id, moved.id);
  EXPECT_EQ(attempt.run_id, moved.run_id);
  // Ids were shifted by b's own rows: the file's id 1 is b's first hypothesis, not the imported one.
  EXPECT_EQ(fa.hypothesis, hyps[0].id);
}

TEST(TransferImport, SecondImportAddsNothing) {
  TempDir dir;
  Workspace a = Workspace::open(dir.file("a.db"));
  Workspace b = Workspace::open(dir.file("b.db"));
  fill(a, "p1", "a1");
  fill(a, "p2", "a2");
  a.claim_attempt(sample_attempt("p2", 2, "still-pending"));
  fill(b, "p1", "b1");
  export_workspace(a, dir.file("a-out.db"));
  import_workspace(b, dir.file("a-out.db"));
  const char* tables[] = {"problems", "runs", "hypotheses", "attempts", "lessons", "stages"};
  std::vector<int64_t> before;
  for (const char* t : tables) before.push_back(count(b, t));

  TransferCounts c = import_workspace(b, dir.file("a-out.db"));
  expect_counts(c.problems, 0, 2, 0, "problems");
  expect_counts(c.runs, 0, 2, 0, "runs");
  expect_counts(c.hypotheses, 0, 2, 0, "hypotheses");
  expect_counts(c.attempts, 0, 3, 0, "attempts");
  expect_counts(c.lessons, 0, 2, 0, "lessons");
  expect_counts(c.stages, 0, 2, 0, "stages");
  for (size_t i = 0; i < before.size(); ++i) EXPECT_EQ(count(b, tables[i]), before[i]) << tables[i];
}

TEST(TransferImport, LessonsDeduplicatedOnProblemMoveAndText) {
  TempDir dir;
  Workspace a = Workspace::open(dir.file("a.db"));
  Workspace b = Workspace::open(dir.file("b.db"));
  Filled fa = fill(a, "p1", "a1");
  a.add_lesson(sample_lesson("p1", fa.run, "shared lesson"));
  LessonRow other_move = sample_lesson("p1", fa.run, "shared lesson");
  other_move.move_json = R"({"stages":5})";
  a.add_lesson(other_move);
  Filled fb = fill(b, "p1", "b1");
  b.add_lesson(sample_lesson("p1", fb.run, "shared lesson"));
  export_workspace(a, dir.file("a-out.db"));
  TransferCounts c = import_workspace(b, dir.file("a-out.db"));
  expect_counts(c.lessons, 2, 1, 0, "lessons");  // "lesson a1" and the other move are new
  EXPECT_EQ(count(b, "lessons"), 4);
}

TEST(TransferImport, SplitRunDeltaAndLaterProgress) {
  TempDir dir;
  int64_t last = 0;
  {
    Workspace main = Workspace::open(dir.file("main.db"));
    last = fill(main, "p1", "before-split").run;
  }
  // The GPU machine starts from a copy of the main workspace (closed, so nothing is left in its WAL).
  std::filesystem::copy_file(dir.file("main.db"), dir.file("gpu.db"));
  Workspace main = Workspace::open(dir.file("main.db"));
  Workspace gpu = Workspace::open(dir.file("gpu.db"));
  int64_t run = gpu.begin_run(sample_run("ucutlass optimize --shard 1/2"));
  HypothesisRow h = sample_hypothesis("p1", run, R"({"swizzle":8})");
  h.id = gpu.add_hypothesis(h);
  AttemptRow a = sample_attempt("p1", run, "sharded");
  a.hypothesis_id = h.id;
  a = gpu.claim_attempt(a);
  gpu.add_stage(sample_stage("p1", run, Stage::nominate));

  export_workspace(gpu, dir.file("part1.db"), last);
  TransferCounts c = import_workspace(main, dir.file("part1.db"));
  expect_counts(c.runs, 1, 0, 0, "runs");
  expect_counts(c.hypotheses, 1, 0, 0, "hypotheses");
  expect_counts(c.attempts, 1, 0, 0, "attempts");
  expect_counts(c.stages, 1, 0, 0, "stages");
  EXPECT_EQ(main.pending_attempts().size(), 1u);

  // The shard goes on: the attempt is measured, the hypothesis closed, the run finished.
  gpu.finish_attempt(measured(a, 0.5));
  h.status = HypothesisStatus::done;
  h.measured_speedup = 1.3;
  gpu.update_hypothesis(h);
  gpu.add_stage(sample_stage("p1", run, Stage::summarize));
  gpu.finish_run(run, "2026-12-02T00:00:00Z");
  export_workspace(gpu, dir.file("part2.db"), last);
  c = import_workspace(main, dir.file("part2.db"));
  expect_counts(c.runs, 0, 0, 1, "runs");
  expect_counts(c.hypotheses, 0, 0, 1, "hypotheses");
  expect_counts(c.attempts, 0, 0, 1, "attempts");
  expect_counts(c.stages, 1, 1, 0, "stages");

  std::vector<RunRow> runs = main.runs();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].finished, "2026-12-02T00:00:00Z");
  EXPECT_EQ(main.hypotheses("p1").back().status, HypothesisStatus::done);
  EXPECT_EQ(main.best_attempt("p1")->config_hash, "sharded");
  EXPECT_EQ(main.best_attempt("p1")->hypothesis_id, main.hypotheses("p1").back().id);
  EXPECT_EQ(main.stages("p1", runs[1].id).size(), 2u);
  EXPECT_TRUE(main.pending_attempts().empty());
}

TEST(TransferImport, RefusesMissingFilesOtherSchemasAndItself) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("main.db"));
  fill(ws, "p1", "a");
  EXPECT_THROW(import_workspace(ws, dir.file("absent.db")), WorkspaceError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("absent.db")));
  EXPECT_THROW(import_workspace(ws, dir.file("main.db")), WorkspaceError);

  {
    Workspace newer = Workspace::open(dir.file("newer.db"));
    Statement(newer.connection(), "UPDATE schema_version SET version = ?1")
        .bind(1, kSchemaVersion + 1)
        .execute();
  }
  try {
    import_workspace(ws, dir.file("newer.db"));
    FAIL() << "imported a newer schema";
  } catch (const WorkspaceError& e) {
    EXPECT_NE(std::string(e.what()).find(dir.file("newer.db")), std::string::npos) << e.what();
  }
  // A file that is no workspace is named, not the workspace it was to go into.
  std::ofstream(dir.file("notes.db")) << std::string(200, 'x');
  try {
    import_workspace(ws, dir.file("notes.db"));
    FAIL() << "imported a text file";
  } catch (const WorkspaceError& e) {
    EXPECT_EQ(std::string(e.what()),
              "'" + dir.file("notes.db") + "' is not a μCUTLASS workspace: it is not an SQLite database");
  }
  EXPECT_EQ(count(ws, "runs"), 1);
  // The connection is usable afterwards (nothing left attached or open).
  fill(ws, "p1", "b");
  EXPECT_EQ(count(ws, "runs"), 2);
}

TEST(TransferImport, AnOlderFileIsMigratedInMemoryAndLeftAsItIs) {
  TempDir dir;
  {
    Workspace old = Workspace::open(dir.file("old.db"));
    fill(old, "p1", "a");
    // What a version-2 file looked like: no attempts.code_hash, nor version 4's tables.
    old.connection().exec("ALTER TABLE attempts DROP COLUMN code_hash");
    old.connection().exec("DROP TABLE llm_calls; DROP TABLE run_prompt_packs");
    old.connection().exec("UPDATE schema_version SET version = 2");
  }
  std::string before = read_file(dir.file("old.db")).value();
  Workspace ws = Workspace::open(dir.file("main.db"));
  TransferCounts c = import_workspace(ws, dir.file("old.db"));
  expect_counts(c.runs, 1, 0, 0, "runs");
  expect_counts(c.attempts, 1, 0, 0, "attempts");
  ASSERT_EQ(ws.attempts("p1").size(), 1u);
  EXPECT_EQ(ws.attempts("p1").front().code_hash, "");
  EXPECT_EQ(read_file(dir.file("old.db")), before);
}

}  // namespace
}  // namespace ucut::store
