// store/sqlite.cpp — the SQLite wrapper (store/sqlite.h).
#include "store/sqlite.h"

#include <utility>

namespace ucut::store {

Db Db::open(const std::string& path, bool create) {
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    throw WorkspaceError("cannot open workspace '" + path + "': " + msg);
  }
  sqlite3_extended_result_codes(db, 1);
  return Db(db, path);
}

Db::Db(Db&& o) noexcept : db_(std::exchange(o.db_, nullptr)), path_(std::move(o.path_)) {}

Db& Db::operator=(Db&& o) noexcept {
  if (this != &o) {
    sqlite3_close(db_);
    db_ = std::exchange(o.db_, nullptr);
    path_ = std::move(o.path_);
  }
  return *this;
}

Db::~Db() { sqlite3_close(db_); }

void Db::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) == SQLITE_OK) return;
  std::string msg = err ? err : sqlite3_errmsg(db_);
  sqlite3_free(err);
  throw WorkspaceError("workspace '" + path_ + "': " + msg + "; SQL: " + sql);
}

void Db::fail(const std::string& sql) const {
  throw WorkspaceError("workspace '" + path_ + "': " + sqlite3_errmsg(db_) + "; SQL: " + sql);
}

Statement::Statement(Db& db, const std::string& sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK) db.fail(sql);
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

void Statement::check_bind(int rc) {
  if (rc != SQLITE_OK) db_.fail(sql_);
}

Statement& Statement::bind(int i, int64_t v) {
  check_bind(sqlite3_bind_int64(stmt_, i, v));
  return *this;
}

Statement& Statement::bind(int i, double v) {
  check_bind(sqlite3_bind_double(stmt_, i, v));
  return *this;
}

Statement& Statement::bind(int i, const std::string& v) {
  check_bind(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  return *this;
}

Statement& Statement::bind(int i, std::nullopt_t) {
  check_bind(sqlite3_bind_null(stmt_, i));
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail(sql_);
}

void Statement::execute() {
  while (step()) {
  }
}

std::string Statement::text(int col) const {
  const unsigned char* p = sqlite3_column_text(stmt_, col);
  return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(stmt_, col)) : std::string();
}

std::optional<int64_t> Statement::opt_int64(int col) const {
  if (is_null(col)) return std::nullopt;
  return int64(col);
}

std::optional<double> Statement::opt_real(int col) const {
  if (is_null(col)) return std::nullopt;
  return real(col);
}

Transaction::Transaction(Db& db) : db_(db), nested_(sqlite3_get_autocommit(db.handle()) == 0) {
  db_.exec(nested_ ? "SAVEPOINT ucut_nested" : "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (done_) return;
  const char* undo = nested_ ? "ROLLBACK TO ucut_nested; RELEASE ucut_nested" : "ROLLBACK";
  sqlite3_exec(db_.handle(), undo, nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec(nested_ ? "RELEASE ucut_nested" : "COMMIT");
  done_ = true;
}

Attached::Attached(Db& db, const std::string& path, std::string alias) : db_(db), alias_(std::move(alias)) {
  Statement(db, "ATTACH DATABASE ?1 AS " + alias_).bind(1, path).execute();
}

Attached::~Attached() {
  sqlite3_exec(db_.handle(), ("DETACH DATABASE " + alias_).c_str(), nullptr, nullptr, nullptr);
}

}  // namespace ucut::store
