// store/workspace.cpp — the workspace (store/workspace.h): opening with the shared-file settings, and each
// table's reads and writes through store/rows.h.
#include "store/workspace.h"

#include <filesystem>

#include "store/rows.h"
#include "store/schema.h"
#include "support/files.h"
#include "support/sha256.h"

namespace ucut::store {

namespace {

namespace fs = std::filesystem;

/// Throws WorkspaceError when `path` names a folder, or, with `must_exist`, nothing.
void check_file(const std::string& path, bool must_exist) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw WorkspaceError("'" + path + "' is a folder, not a workspace file");
  if (must_exist && !fs::exists(path, ec)) throw WorkspaceError("no workspace '" + path + "': no such file");
}

/// Inserts `row` into `t` and returns it with its new id, unless `existing()` finds the row with its key:
/// then returns that one. One IMMEDIATE transaction, so processes sharing the file claim a key once.
template <class Row, class Find>
Row claim_row(Db& db, const Table& t, Row row, Find existing) {
  Transaction tx(db);
  if (std::optional<Row> found = existing()) return *found;
  Statement s(db, insert_sql(t));
  bind_row(s, row);
  s.execute();
  row.id = db.last_insert_id();
  tx.commit();
  return row;
}

/// Writes `t`'s columns (bind_results) of the row with `row.id`; WorkspaceError naming `what` when none.
template <class Row>
void update_results(Db& db, const Table& t, const Row& row, const char* what) {
  Transaction tx(db);
  Statement s(db, update_sql(t));
  bind_results(s, row);
  s.bind(t.count + 1, row.id).execute();
  if (db.changes() == 0)
    throw WorkspaceError("workspace '" + db.path() + "': no " + what + " " + std::to_string(row.id));
  tx.commit();
}

/// "(?n IS NULL OR run_id = ?n) AND ...": the filter's conditions from parameter `first` on (bind_filter).
std::string filter_sql(int first) {
  std::string out;
  for (const char* column : {"run_id", "problem_id", "iteration", "role"}) {
    std::string p = "?" + std::to_string(first++);
    out += (out.empty() ? "" : " AND ") + ("(" + p + " IS NULL OR " + column + " = " + p + ")");
  }
  return out;
}

void bind_filter(Statement& s, const LlmCallFilter& f, int first) {
  s.bind_from(first, f.run_id, f.problem_id, f.iteration, f.role);
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
  a.status = AttemptStatus::pending;
  if (a.created.empty()) a.created = utc_now();
  return claim_row(db_, kAttempts, a, [&] { return find_attempt(a.problem_id, a.config_hash); });
}

void Workspace::finish_attempt(const AttemptRow& a) { update_results(db_, kAttemptResults, a, "attempt"); }

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

LlmCallRow Workspace::claim_llm_call(LlmCallRow c) {
  c.status = LlmCallStatus::pending;
  if (c.request_hash.empty()) c.request_hash = sha256_hex(c.request_json);
  if (c.created.empty()) c.created = utc_now();
  c.finished.clear();
  return claim_row(db_, kLlmCalls, c, [&] {
    return find_llm_call(c.run_id, c.problem_id, c.iteration, c.role, c.seq, c.request_hash);
  });
}

void Workspace::finish_llm_call(LlmCallRow c) {
  if (c.finished.empty()) c.finished = utc_now();
  update_results(db_, kLlmCallResults, c, "model call");
}

std::optional<LlmCallRow> Workspace::find_llm_call(int64_t run_id, const std::string& problem_id,
                                                   int iteration, const std::string& role, int seq,
                                                   const std::string& request_hash) {
  Statement s(db_, select_sql(kLlmCalls,
                              "WHERE run_id = ?1 AND problem_id = ?2 AND iteration = ?3 AND role = ?4 AND "
                              "seq = ?5 AND request_hash = ?6"));
  s.bind_all(run_id, problem_id, iteration, role, seq, request_hash);
  return read_one<LlmCallRow>(s);
}

std::vector<LlmCallRow> Workspace::llm_calls(const LlmCallFilter& f) {
  Statement s(db_, select_sql(kLlmCalls, "WHERE " + filter_sql(1) + " ORDER BY id"));
  bind_filter(s, f, 1);
  return read_all<LlmCallRow>(s);
}

LlmUsage Workspace::llm_usage(const LlmCallFilter& f) {
  Statement s(
      db_,
      "SELECT role, count(*), total(status = 'failed'), total(status = 'pending'), total(prompt_tokens), "
      "total(completion_tokens), total(cost_usd) FROM main.llm_calls WHERE " +
          filter_sql(1) + " GROUP BY role ORDER BY role");
  bind_filter(s, f, 1);
  LlmUsage u;
  while (s.step()) {
    LlmRoleUsage& r = u.roles.emplace_back();
    r.role = s.text(0);
    r.calls = s.int64(1);
    r.failed = s.int64(2);
    r.pending = s.int64(3);
    r.prompt_tokens = s.int64(4);
    r.completion_tokens = s.int64(5);
    r.cost_usd = s.real(6);
  }
  return u;
}

void Workspace::set_attempt_tokens(int64_t attempt_id, int64_t tokens) {
  Statement(db_, "UPDATE attempts SET tokens = ?1 WHERE id = ?2").bind_all(tokens, attempt_id).execute();
  if (db_.changes() == 0)
    throw WorkspaceError("workspace '" + path() + "': no attempt " + std::to_string(attempt_id));
}

void Workspace::add_prompt_pack(const PromptPackRow& p) {
  Statement s(
      db_, "INSERT OR IGNORE INTO run_prompt_packs (" + kPromptPacks.columns + ") VALUES (?1, ?2, ?3, ?4)");
  bind_row(s, p);
  s.execute();
}

std::vector<PromptPackRow> Workspace::prompt_packs(int64_t run_id) {
  Statement s(db_, select_sql(kPromptPacks, "WHERE run_id = ?1 ORDER BY name, version, hash"));
  s.bind(1, run_id);
  return read_all<PromptPackRow>(s);
}

}  // namespace ucut::store
