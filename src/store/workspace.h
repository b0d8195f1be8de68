// store/workspace.h — the optimization workspace: one SQLite file holding the problems, runs, attempts,
// hypotheses, lessons and stage artifacts of the engine (store/records.h). Several processes may share a
// file; an attempt's (problem, config hash) is claimed once, so an interrupted run resumes without
// re-measuring.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/records.h"
#include "store/sqlite.h"

namespace ucut::store {

/// One connection to one workspace file. Use an object from one thread only; other threads and processes
/// open their own (WAL journal, synchronous=FULL, foreign keys on, 5 s busy timeout). Errors: WorkspaceError.
class Workspace {
 public:
  /// Opens `path` to read and write, creating the file and its tables when missing (its folder must exist)
  /// and migrating an older schema in place: for the commands that write (optimize, workspace import).
  static Workspace open(const std::string& path);
  /// Opens the existing workspace `path` for a command that only reads it (report, search-compare, workspace
  /// show and export): the file and its folder stay byte for byte as they are. The object works on an
  /// in-memory copy (Db::copy_of), migrated there when the file's schema is older; what is written to it is
  /// lost with it.
  static Workspace open_read_only(const std::string& path);

  std::string path() const { return db_.path(); }

  /// Inserts the problem, or replaces the fields of the one with its id (keeping its place in the order).
  void upsert_problem(const ProblemRow& p);
  std::optional<ProblemRow> problem(const std::string& id);
  /// In insertion order.
  std::vector<ProblemRow> problems();

  /// Inserts the run (its id is ignored; `started` empty means now) and returns its id.
  int64_t begin_run(RunRow r);
  /// Sets the run's end time; `finished` empty means now.
  void finish_run(int64_t id, std::string finished = {});
  /// In id order.
  std::vector<RunRow> runs();

  /// Inserts `a` as a pending attempt (`created` empty means now) and returns it with its id; when the
  /// problem already has an attempt with `a.config_hash`, returns that one unchanged instead. A returned
  /// row that is still pending was interrupted: run it again and finish it.
  AttemptRow claim_attempt(AttemptRow a);
  /// Writes the outcome (kAttemptResults' fields) of the attempt with `a.id`.
  void finish_attempt(const AttemptRow& a);
  /// In id order.
  std::vector<AttemptRow> attempts(const std::string& problem_id);
  std::optional<AttemptRow> find_attempt(const std::string& problem_id, const std::string& config_hash);
  /// The fastest attempt that counts (AttemptRow::counts), the earliest on a tie.
  std::optional<AttemptRow> best_attempt(const std::string& problem_id);
  /// Every pending attempt, in id order.
  std::vector<AttemptRow> pending_attempts();

  int64_t add_hypothesis(const HypothesisRow& h);
  /// Replaces every field of the hypothesis with `h.id`.
  void update_hypothesis(const HypothesisRow& h);
  /// In id order.
  std::vector<HypothesisRow> hypotheses(const std::string& problem_id);

  /// `created` empty means now.
  int64_t add_lesson(LessonRow l);
  /// Lessons of `family`, best match first: same shape class and arch, then same arch, then the rest;
  /// newest first within each rank; at most `limit`.
  std::vector<LessonRow> lessons(const std::string& family, const std::string& shape_class,
                                 const std::string& arch, size_t limit);

  /// `created` empty means now.
  int64_t add_stage(StageRow s);
  /// The problem's stages in that run, in id order.
  std::vector<StageRow> stages(const std::string& problem_id, int64_t run_id);

  /// The connection, for store/transfer and for tests that inspect the file; same one-thread rule.
  Db& connection() { return db_; }

 private:
  explicit Workspace(Db db) : db_(std::move(db)) {}
  Db db_;
};

}  // namespace ucut::store
