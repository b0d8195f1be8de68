// tests/unit/store/workspace_test.cpp — store/workspace.h: opening (WAL and the other settings, reopening,
// a newer schema, a missing folder, a file that is no workspace said in plain words, a statement SQLite
// cannot run as a bug), opening read-only (a committed older workspace migrated in memory and left byte for
// byte, a file a writer holds read through its log), and the round trip of every table, attempt claiming, the
// best attempt and the lesson ranking.
#include "store/workspace.h"

#include <gtest/gtest.h>

#include <fstream>

#include "../test_paths.h"
#include "fixture.h"
#include "store/schema.h"
#include "support/error.h"
#include "support/files.h"

namespace ucut::store {
namespace {

using namespace testing;

int64_t pragma(Workspace& ws, const std::string& name) {
  Statement s(ws.connection(), "PRAGMA " + name);
  s.step();
  return s.int64(0);
}

TEST(WorkspaceOpen, SettingsAndWal) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  EXPECT_EQ(ws.path(), dir.file("w.db"));
  EXPECT_EQ(pragma(ws, "synchronous"), 2);  // FULL
  EXPECT_EQ(pragma(ws, "foreign_keys"), 1);
  EXPECT_EQ(pragma(ws, "busy_timeout"), 5000);
  // The journal mode is stored in the file: another connection sees it.
  Db other = Db::open(dir.file("w.db"), false);
  Statement s(other, "PRAGMA journal_mode");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.text(0), "wal");
}

TEST(WorkspaceOpen, ReopenPersists) {
  TempDir dir;
  std::string path = dir.file("w.db");
  int64_t run = 0;
  {
    Workspace ws = Workspace::open(path);
    ws.upsert_problem(sample_problem("p1"));
    run = ws.begin_run(sample_run());
    ws.finish_attempt(measured(ws.claim_attempt(sample_attempt("p1", run, "h1")), 2.0));
  }
  Workspace ws = Workspace::open(path);
  ASSERT_EQ(ws.problems().size(), 1u);
  ASSERT_EQ(ws.runs().size(), 1u);
  std::optional<AttemptRow> best = ws.best_attempt("p1");
  ASSERT_TRUE(best);
  EXPECT_EQ(best->time_ms, 2.0);
  EXPECT_EQ(best->run_id, run);
}

TEST(WorkspaceOpen, NewerSchemaIsRefusedNamingTheFile) {
  TempDir dir;
  std::string path = dir.file("w.db");
  {
    Workspace ws = Workspace::open(path);
    Statement(ws.connection(), "UPDATE schema_version SET version = ?1")
        .bind(1, kSchemaVersion + 1)
        .execute();
  }
  try {
    Workspace::open(path);
    FAIL() << "opened a workspace with a newer schema";
  } catch (const WorkspaceError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("version " + std::to_string(kSchemaVersion + 1)), std::string::npos) << msg;
    EXPECT_NE(msg.find("(" + std::to_string(kSchemaVersion) + ")"), std::string::npos) << msg;
    EXPECT_NE(msg.find("newer"), std::string::npos) << msg;
  }
}

TEST(WorkspaceOpen, VersionOneFileIsMigratedKeepingItsRows) {
  TempDir dir;
  std::string path = dir.file("w.db");
  {
    Workspace ws = Workspace::open(path);
    ws.upsert_problem(sample_problem("p1"));
    // What a version-1 file looked like: no problems.inputs (nor attempts.code_hash, from version 3).
    ws.connection().exec("ALTER TABLE problems DROP COLUMN inputs");
    ws.connection().exec("ALTER TABLE attempts DROP COLUMN code_hash");
    ws.connection().exec("DROP TABLE llm_calls; DROP TABLE run_prompt_packs");  // nor version 4's tables
    ws.connection().exec("UPDATE schema_version SET version = 1");
  }
  Workspace ws = Workspace::open(path);
  EXPECT_EQ(stored_schema_version(ws.connection()), kSchemaVersion);
  ASSERT_EQ(ws.problems().size(), 1u);
  EXPECT_EQ(ws.problems().front().inputs, "signed");  // everything before version 2 was measured on signed data
  ProblemRow framework = sample_problem("p2");
  framework.inputs = "a=rand b=param c=rand vectors=param";
  ws.upsert_problem(framework);
  EXPECT_EQ(ws.problem("p2")->inputs, framework.inputs);
}

TEST(WorkspaceOpen, VersionTwoFileGetsAnEmptyCodeHashPerAttempt) {
  TempDir dir;
  std::string path = dir.file("w.db");
  {
    Workspace ws = Workspace::open(path);
    ws.upsert_problem(sample_problem("p1"));
    AttemptRow a;
    a.problem_id = "p1";
    a.run_id = ws.begin_run({});
    a.spec = a.config_hash = "kernel k";
    ws.claim_attempt(a);
    // What a version-2 file looked like: no attempts.code_hash, nor version 4's tables.
    ws.connection().exec("ALTER TABLE attempts DROP COLUMN code_hash");
    ws.connection().exec("DROP TABLE llm_calls; DROP TABLE run_prompt_packs");
    ws.connection().exec("UPDATE schema_version SET version = 2");
  }
  Workspace ws = Workspace::open(path);
  EXPECT_EQ(stored_schema_version(ws.connection()), kSchemaVersion);
  ASSERT_EQ(ws.attempts("p1").size(), 1u);
  AttemptRow a = ws.attempts("p1").front();
  EXPECT_EQ(a.code_hash, "");  // not recorded: a later run keeps its measurement
  a.code_hash = std::string(64, 'b');
  ws.finish_attempt(a);
  EXPECT_EQ(ws.attempts("p1").front().code_hash, a.code_hash);
}

TEST(WorkspaceOpen, MissingFolderIsAClearError) {
  TempDir dir;
  std::string path = dir.file("absent/w.db");
  try {
    Workspace::open(path);
    FAIL() << "opened a workspace in a missing folder";
  } catch (const WorkspaceError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot open workspace '" + path + "': folder '" + dir.file("absent") +
                                         "' does not exist; create it first");
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("absent")));
}

TEST(WorkspaceOpen, AStatementSqliteCannotRunIsABugNamingIt) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  try {
    Statement(ws.connection(), "SELECT x FROM nowhere");
    FAIL();
  } catch (const InternalError& e) {
    std::string msg = e.what();
    EXPECT_EQ(e.file(), "store/sqlite.cpp");
    EXPECT_NE(
        msg.find("SQLite: no such table: nowhere, in `SELECT x FROM nowhere` on '" + dir.file("w.db") + "'"),
        std::string::npos)
        << msg;
  }
  // Foreign keys hold: an attempt needs its problem and run; claiming one without is the caller's bug.
  EXPECT_THROW(ws.claim_attempt(sample_attempt("ghost", 1, "h")), InternalError);
}

/// What opening `path` with `open` refuses, or "opened".
template <class Open>
std::string refusal(Open open, const std::string& path) {
  try {
    open(path);
  } catch (const WorkspaceError& e) {
    return e.what();
  }
  return "opened";
}

TEST(WorkspaceOpen, AFileThatIsNoWorkspaceIsNamedInPlainWordsAndLeftAlone) {
  TempDir dir;
  std::string notes = dir.file("notes.db"), other = dir.file("other.db");
  std::ofstream(notes)
      << "not an SQLite file, but longer than the 100 bytes of an SQLite header would be .........."
         "..........................................................\n";
  Db::open(other).exec("CREATE TABLE t (x INTEGER)");
  std::string notes_bytes = read_file(notes).value(), other_bytes = read_file(other).value();
  for (auto open : {+[](const std::string& p) { Workspace::open(p); },
                    +[](const std::string& p) { Workspace::open_read_only(p); }}) {
    EXPECT_EQ(refusal(open, notes),
              "'" + notes + "' is not a μCUTLASS workspace: it is not an SQLite database");
    EXPECT_EQ(refusal(open, other), "'" + other +
                                        "' is not a μCUTLASS workspace: an SQLite database without the "
                                        "workspace's schema_version table");
    EXPECT_EQ(refusal(open, dir.path().string()),
              "'" + dir.path().string() + "' is a folder, not a workspace file");
  }
  EXPECT_EQ(refusal(Workspace::open_read_only, dir.file("absent.db")),
            "no workspace '" + dir.file("absent.db") + "': no such file");
  // An empty file only becomes a workspace when a command that writes opens it.
  std::string empty = dir.file("empty.db");
  std::ofstream(empty).flush();
  EXPECT_EQ(refusal(Workspace::open_read_only, empty),
            "'" + empty + "' is not a μCUTLASS workspace: it is empty (no table at all)");
  EXPECT_EQ(std::filesystem::file_size(empty), 0u);
  std::filesystem::remove(empty);
  EXPECT_EQ(read_file(notes), notes_bytes);
  EXPECT_EQ(read_file(other), other_bytes);
  EXPECT_EQ(files_in(dir.path()), (std::vector<std::string>{"notes.db", "other.db"}));
}

TEST(WorkspaceReadOnly, AnOlderCommittedWorkspaceIsMigratedInMemoryAndLeftByteForByte) {
  // Schema 2 (no attempts.code_hash), as committed.
  TempDir dir;
  std::string path = dir.file("kb1e2.db");
  std::filesystem::copy_file(ucut::test_paths::source_dir() + "/bench/results/optimize_1e-2/kb1e2.db", path);
  std::string before = read_file(path).value();
  {
    Workspace ws = Workspace::open_read_only(path);
    EXPECT_EQ(ws.path(), path);
    EXPECT_EQ(stored_schema_version(ws.connection()), kSchemaVersion);
    ASSERT_FALSE(ws.problems().empty());
    std::string problem = ws.problems().front().id;
    ASSERT_FALSE(ws.attempts(problem).empty());
    EXPECT_EQ(ws.attempts(problem).front().code_hash, "");  // what the migration gives an older attempt
    // The copy takes writes; the file never sees them.
    ws.upsert_problem(sample_problem("added"));
    EXPECT_TRUE(ws.problem("added"));
    EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"kb1e2.db"});
  }
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"kb1e2.db"});
  Db file = Db::copy_of(path);
  EXPECT_EQ(stored_schema_version(file), 2);
}

TEST(WorkspaceReadOnly, AFileAWriterHoldsIsReadThroughItsLog) {
  TempDir dir;
  std::string path = dir.file("w.db");
  {
    Workspace writer = Workspace::open(path);
    writer.upsert_problem(sample_problem("p1"));
    ASSERT_TRUE(std::filesystem::exists(path + "-wal"));  // the row is in the log, not yet in the file
    {
      Workspace reader = Workspace::open_read_only(path);
      ASSERT_EQ(reader.problems().size(), 1u);
      EXPECT_EQ(reader.problems().front().id, "p1");
    }
    writer.upsert_problem(sample_problem("p2"));
    EXPECT_EQ(writer.problems().size(), 2u);
  }
  // The writer, last to close, folded its log into the file and removed it.
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"w.db"});
  EXPECT_EQ(Workspace::open_read_only(path).problems().size(), 2u);
}

TEST(WorkspaceProblems, RoundTripUpsertAndOrder) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  ProblemRow b = sample_problem("b_second");
  b.baseline_ms.reset();
  ws.upsert_problem(sample_problem("z_first"));
  ws.upsert_problem(b);
  ws.upsert_problem(sample_problem("a_third", "conv"));
  std::optional<ProblemRow> got = ws.problem("b_second");
  ASSERT_TRUE(got);
  EXPECT_EQ(fields(*got), fields(b));
  EXPECT_FALSE(ws.problem("missing"));

  ProblemRow changed = sample_problem("z_first");
  changed.baseline_ms = 0.75;
  changed.shape_class = "skinny-k";
  ws.upsert_problem(changed);
  std::vector<ProblemRow> all = ws.problems();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(fields(all[0]), fields(changed));  // updated in place, still first
  EXPECT_EQ(all[1].id, "b_second");
  EXPECT_EQ(all[2].id, "a_third");
}

TEST(WorkspaceRuns, RoundTripAndFinish) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  RunRow given = sample_run();
  given.started = "2026-12-01T10:00:00Z";
  int64_t a = ws.begin_run(given);
  int64_t b = ws.begin_run(sample_run("ucutlass optimize --resume"));
  EXPECT_GT(b, a);
  ws.finish_run(a, "2026-12-01T11:00:00Z");
  ws.finish_run(b);
  std::vector<RunRow> runs = ws.runs();
  ASSERT_EQ(runs.size(), 2u);
  given.id = a;
  given.finished = "2026-12-01T11:00:00Z";
  EXPECT_EQ(fields(runs[0]), fields(given));
  EXPECT_EQ(runs[1].started.size(), 20u);  // now, e.g. 2026-12-01T18:00:00Z
  EXPECT_EQ(runs[1].finished.size(), 20u);
  EXPECT_THROW(ws.finish_run(99), WorkspaceError);
}

TEST(WorkspaceAttempts, ClaimFinishRoundTrip) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  ws.upsert_problem(sample_problem("p1"));
  int64_t run = ws.begin_run(sample_run());
  int64_t hyp = ws.add_hypothesis(sample_hypothesis("p1", run, R"({"stages":4})"));
  AttemptRow a = sample_attempt("p1", run, "h1");
  a.hypothesis_id = hyp;
  a.created = "2026-12-01T10:00:00Z";
  AttemptRow claimed = ws.claim_attempt(a);
  EXPECT_GT(claimed.id, 0);
  EXPECT_EQ(claimed.status, AttemptStatus::pending);
  a.id = claimed.id;
  EXPECT_EQ(fields(claimed), fields(a));
  EXPECT_EQ(ws.pending_attempts().size(), 1u);

  AttemptRow done = measured(claimed, 1.25);
  done.flags = {FlagId::off_stream, FlagId::precision_change};
  done.flagged = true;
  done.precision_change = true;
  done.error = "note";
  ws.finish_attempt(done);
  std::optional<AttemptRow> got = ws.find_attempt("p1", "h1");
  ASSERT_TRUE(got);
  EXPECT_EQ(fields(*got), fields(done));
  EXPECT_TRUE(ws.pending_attempts().empty());
  EXPECT_FALSE(ws.find_attempt("p1", "other"));

  AttemptRow unknown = claimed;
  unknown.id = 12345;
  EXPECT_THROW(ws.finish_attempt(unknown), WorkspaceError);
}

TEST(WorkspaceAttempts, ClaimReturnsTheExistingRowForADuplicateHash) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  ws.upsert_problem(sample_problem("p1"));
  ws.upsert_problem(sample_problem("p2"));
  int64_t run = ws.begin_run(sample_run());
  AttemptRow first = ws.claim_attempt(sample_attempt("p1", run, "same"));

  // Still pending: an interrupted attempt, returned as it is for the caller to re-run.
  AttemptRow again = sample_attempt("p1", run, "same");
  again.spec = "different text";
  EXPECT_EQ(fields(ws.claim_attempt(again)), fields(first));

  AttemptRow done = measured(first, 3.0);
  ws.finish_attempt(done);
  AttemptRow third = ws.claim_attempt(again);
  EXPECT_EQ(fields(third), fields(done));
  EXPECT_EQ(third.status, AttemptStatus::measured);
  EXPECT_EQ(ws.attempts("p1").size(), 1u);

  // The same hash under another problem is another attempt.
  AttemptRow other = ws.claim_attempt(sample_attempt("p2", run, "same"));
  EXPECT_NE(other.id, first.id);
  EXPECT_EQ(other.status, AttemptStatus::pending);
}

TEST(WorkspaceAttempts, BestIgnoresFlaggedWrongAndUnmeasured) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  ws.upsert_problem(sample_problem("p1"));
  int64_t run = ws.begin_run(sample_run());
  auto add = [&](const std::string& hash, auto outcome) {
    AttemptRow a = ws.claim_attempt(sample_attempt("p1", run, hash));
    outcome(a);
    ws.finish_attempt(a);
    return a;
  };
  EXPECT_FALSE(ws.best_attempt("p1"));
  add("flagged", [](AttemptRow& a) { a = measured(a, 0.1), a.flagged = true; });
  add("wrong",
      [](AttemptRow& a) { a = measured(a, 0.2), a.status = AttemptStatus::wrong, a.correct = false; });
  add("incorrect", [](AttemptRow& a) { a = measured(a, 0.25), a.correct = false; });
  add("untimed", [](AttemptRow& a) { a = measured(a, 0.3), a.time_ms.reset(); });
  add("crashed", [](AttemptRow& a) { a.status = AttemptStatus::crashed, a.error = "illegal address"; });
  ws.claim_attempt(sample_attempt("p1", run, "pending"));
  EXPECT_FALSE(ws.best_attempt("p1"));

  add("slow", [](AttemptRow& a) { a = measured(a, 2.0); });
  AttemptRow fast = add("fast", [](AttemptRow& a) { a = measured(a, 1.0), a.precision_change = true; });
  add("tie", [](AttemptRow& a) { a = measured(a, 1.0); });
  std::optional<AttemptRow> best = ws.best_attempt("p1");
  ASSERT_TRUE(best);
  EXPECT_EQ(best->id, fast.id);
  EXPECT_EQ(ws.attempts("p1").size(), 9u);
  EXPECT_EQ(ws.pending_attempts().size(), 1u);
}

TEST(WorkspaceHypotheses, RoundTripAndUpdate) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  ws.upsert_problem(sample_problem("p1"));
  ws.upsert_problem(sample_problem("p2"));
  int64_t run = ws.begin_run(sample_run());
  HypothesisRow h = sample_hypothesis("p1", run, R"({"tile":[128,256,64]})");
  h.id = ws.add_hypothesis(h);
  HypothesisRow other = sample_hypothesis("p2", run, R"({"stages":3})");
  other.id = ws.add_hypothesis(other);
  std::vector<HypothesisRow> got = ws.hypotheses("p1");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(fields(got[0]), fields(h));
  EXPECT_FALSE(got[0].measured_speedup);

  h.status = HypothesisStatus::done;
  h.measured_speedup = 1.15;
  h.roi = 0.5;
  ws.update_hypothesis(h);
  got = ws.hypotheses("p1");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(fields(got[0]), fields(h));
  EXPECT_EQ(fields(ws.hypotheses("p2").at(0)), fields(other));
  h.id = 999;
  EXPECT_THROW(ws.update_hypothesis(h), WorkspaceError);
}

TEST(WorkspaceLessons, RoundTripAndRanking) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  ws.upsert_problem(sample_problem("p1"));
  int64_t run = ws.begin_run(sample_run());
  auto lesson = [&](const std::string& text, const std::string& family, const std::string& shape,
                    const std::string& arch, const std::string& created) {
    LessonRow l = sample_lesson("p1", run, text);
    l.family = family, l.shape_class = shape, l.arch = arch, l.created = created;
    l.id = ws.add_lesson(l);
    return l;
  };
  LessonRow family_old = lesson("family old", "gemm", "skinny-k", "sm80", "2026-01-01T00:00:00Z");
  LessonRow exact_old = lesson("exact old", "gemm", "square-large", "sm90a", "2026-01-01T00:00:00Z");
  LessonRow arch_new = lesson("arch new", "gemm", "skinny-k", "sm90a", "2026-03-01T00:00:00Z");
  lesson("other family", "conv", "square-large", "sm90a", "2026-05-01T00:00:00Z");
  LessonRow exact_new = lesson("exact new", "gemm", "square-large", "sm90a", "2026-02-01T00:00:00Z");
  LessonRow arch_old = lesson("arch old", "gemm", "tall", "sm90a", "2026-01-15T00:00:00Z");
  LessonRow family_new = lesson("family new", "gemm", "square-large", "sm80", "2026-04-01T00:00:00Z");

  std::vector<LessonRow> got = ws.lessons("gemm", "square-large", "sm90a", 10);
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(fields(got[0]), fields(exact_new));
  EXPECT_EQ(fields(got[1]), fields(exact_old));
  EXPECT_EQ(fields(got[2]), fields(arch_new));
  EXPECT_EQ(fields(got[3]), fields(arch_old));
  EXPECT_EQ(fields(got[4]), fields(family_new));
  EXPECT_EQ(fields(got[5]), fields(family_old));

  got = ws.lessons("gemm", "square-large", "sm90a", 3);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2].text, "arch new");
  EXPECT_TRUE(ws.lessons("attention", "square-large", "sm90a", 10).empty());
  LessonRow dated = sample_lesson("p1", run, "no date given");
  ws.add_lesson(dated);
  EXPECT_EQ(ws.lessons("gemm", "square-large", "sm90a", 1).at(0).text, "no date given");  // created = now
}

TEST(WorkspaceStages, RoundTrip) {
  TempDir dir;
  Workspace ws = Workspace::open(dir.file("w.db"));
  ws.upsert_problem(sample_problem("p1"));
  int64_t run1 = ws.begin_run(sample_run());
  int64_t run2 = ws.begin_run(sample_run());
  StageRow measure = sample_stage("p1", run1, Stage::measure);
  measure.created = "2026-12-01T10:00:00Z";
  measure.id = ws.add_stage(measure);
  StageRow analyze = sample_stage("p1", run1, Stage::analyze);
  analyze.id = ws.add_stage(analyze);
  ws.add_stage(sample_stage("p1", run2, Stage::measure));
  std::vector<StageRow> got = ws.stages("p1", run1);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(fields(got[0]), fields(measure));
  EXPECT_EQ(got[1].stage, Stage::analyze);
  EXPECT_FALSE(got[1].created.empty());
  EXPECT_EQ(ws.stages("p1", run2).size(), 1u);
  EXPECT_TRUE(ws.stages("p2", run1).empty());
}

}  // namespace
}  // namespace ucut::store
