// store/workspace.cpp — the workspace (store/workspace.h): opening with the shared-file settings, and each
// table's reads and writes through store/rows.h.
#include "store/workspace.h"

#include <filesystem>

#include "store/rows.h"
#include "store/schema.h"
#include "support/files.h"

namespace ucut::store {

namespace {

namespace fs = std::filesystem;

/// Throws WorkspaceError when `path` names a folder, or, with `must_exist`, nothing.
void check_file(const std::string& path, bool must_exist) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw WorkspaceError("'" + path + "' is a folder, not a workspace file");
  if (must_exist && !fs::exists(path, ec)) throw WorkspaceError("no workspace '" + path + "': no such file");
}

}  // namespace

Workspace Workspace::open(const std::string& path) {
  check_file(path, false);
  fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent))
    throw WorkspaceError("cannot open workspace '" + path + "': folder '" + parent.string() +
                         "' does not exist; create it first");
  Db db = Db::open(path);
  if (sqlite3_busy_timeout(db.handle(), 5000) != SQLITE_OK) db.fail("busy_timeout");
  check_workspace(db, path, true);  // before the journal switch, which would change another program's file
  {
    Statement wal(db, "PRAGMA journal_mode=WAL");
    if (!wal.step() || wal.text(0) != "wal")
      throw WorkspaceError("workspace '" + path + "': cannot switch to the WAL journal");
  }
  db.exec("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON");
  apply_schema(db, path);
  return Workspace(std::move(db));
}

Workspace Workspace::open_read_only(const std::string& path) {
  check_file(path, true);
  Db db = Db::copy_of(path);
  check_workspace(db, path, false);
  db.exec("PRAGMA foreign_keys=ON");
  apply_schema(db, path);
  return Workspace(std::move(db));
}

void Workspace::upsert_problem(const ProblemRow& p) {
  Statement s(db_, upsert_sql(kProblems, "id"));
  bind_row(s, p);
  s.execute();
}

std::optional<ProblemRow> Workspace::problem(const std::string& id) {
  Statement s(db_, select_sql(kProblems, "WHERE id = ?1"));
  s.bind(1, id);
  return read_one<ProblemRow>(s);
}

std::vector<ProblemRow> Workspace::problems() {
  Statement s(db_, select_sql(kProblems, "ORDER BY seq"));
  return read_all<ProblemRow>(s);
}

int64_t Workspace::begin_run(RunRow r) {
  if (r.started.empty()) r.started = utc_now();
  Statement s(db_, insert_sql(kRuns));
  bind_row(s, r);
  s.execute();
  return db_.last_insert_id();
}

void Workspace::finish_run(int64_t id, std::string finished) {
  if (finished.empty()) finished = utc_now();
  Statement(db_, "UPDATE runs SET finished = ?1 WHERE id = ?2").bind_all(finished, id).execute();
  if (db_.changes() == 0) throw WorkspaceError("workspace '" + path() + "': no run " + std::to_string(id));
}

std::vector<RunRow> Workspace::runs() {
  Statement s(db_, select_sql(kRuns, "ORDER BY id"));
  return read_all<RunRow>(s);
}

AttemptRow Workspace::claim_attempt(AttemptRow a) {
  Transaction tx(db_);
  if (auto existing = find_attempt(a.problem_id, a.config_hash)) return *existing;
  a.status = AttemptStatus::pending;
  if (a.created.empty()) a.created = utc_now();
  Statement s(db_, insert_sql(kAttempts));
  bind_row(s, a);
  s.execute();
  a.id = db_.last_insert_id();
  tx.commit();
  return a;
}

void Workspace::finish_attempt(const AttemptRow& a) {
  Transaction tx(db_);
  Statement s(db_, update_sql(kAttemptResults));
  bind_results(s, a);
  s.bind(kAttemptResults.count + 1, a.id).execute();
  if (db_.changes() == 0)
    throw WorkspaceError("workspace '" + path() + "': no attempt " + std::to_string(a.id));
  tx.commit();
}

std::vector<AttemptRow> Workspace::attempts(const std::string& problem_id) {
  Statement s(db_, select_sql(kAttempts, "WHERE problem_id = ?1 ORDER BY id"));
  s.bind(1, problem_id);
  return read_all<AttemptRow>(s);
}

std::optional<AttemptRow> Workspace::find_attempt(const std::string& problem_id,
                                                  const std::string& config_hash) {
  Statement s(db_, select_sql(kAttempts, "WHERE problem_id = ?1 AND config_hash = ?2"));
  s.bind_all(problem_id, config_hash);
  return read_one<AttemptRow>(s);
}

std::optional<AttemptRow> Workspace::best_attempt(const std::string& problem_id) {
  std::optional<AttemptRow> best;
  for (AttemptRow& a : attempts(problem_id))
    if (a.counts() && (!best || *a.time_ms < *best->time_ms)) best = std::move(a);
  return best;
}

std::vector<AttemptRow> Workspace::pending_attempts() {
  Statement s(db_, select_sql(kAttempts, "WHERE status = ?1 ORDER BY id"));
  s.bind(1, std::string(enum_name(AttemptStatus::pending)));
  return read_all<AttemptRow>(s);
}

int64_t Workspace::add_hypothesis(const HypothesisRow& h) {
  Statement s(db_, insert_sql(kHypotheses));
  bind_row(s, h);
  s.execute();
  return db_.last_insert_id();
}

void Workspace::update_hypothesis(const HypothesisRow& h) {
  Statement s(db_, update_sql(kHypotheses));
  bind_row(s, h);
  s.bind(kHypotheses.count + 1, h.id).execute();
  if (db_.changes() == 0)
    throw WorkspaceError("workspace '" + path() + "': no hypothesis " + std::to_string(h.id));
}

std::vector<HypothesisRow> Workspace::hypotheses(const std::string& problem_id) {
  Statement s(db_, select_sql(kHypotheses, "WHERE problem_id = ?1 ORDER BY id"));
  s.bind(1, problem_id);
  return read_all<HypothesisRow>(s);
}

int64_t Workspace::add_lesson(LessonRow l) {
  if (l.created.empty()) l.created = utc_now();
  Statement s(db_, insert_sql(kLessons));
  bind_row(s, l);
  s.execute();
  return db_.last_insert_id();
}

std::vector<LessonRow> Workspace::lessons(const std::string& family, const std::string& shape_class,
                                          const std::string& arch, size_t limit) {
  Statement s(db_, select_sql(kLessons,
                              "WHERE family = ?1 ORDER BY CASE WHEN shape_class = ?2 AND arch = ?3 THEN 0 "
                              "WHEN arch = ?3 THEN 1 ELSE 2 END, created DESC, id DESC LIMIT ?4"));
  s.bind_all(family, shape_class, arch, static_cast<int64_t>(limit));
  return read_all<LessonRow>(s);
}

int64_t Workspace::add_stage(StageRow st) {
  if (st.created.empty()) st.created = utc_now();
  Statement s(db_, insert_sql(kStages));
  bind_row(s, st);
  s.execute();
  return db_.last_insert_id();
}

std::vector<StageRow> Workspace::stages(const std::string& problem_id, int64_t run_id) {
  Statement s(db_, select_sql(kStages, "WHERE problem_id = ?1 AND run_id = ?2 ORDER BY id"));
  s.bind_all(problem_id, run_id);
  return read_all<StageRow>(s);
}

}  // namespace ucut::store
