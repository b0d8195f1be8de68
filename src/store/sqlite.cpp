// store/sqlite.cpp — the SQLite wrapper (store/sqlite.h).
#include "store/sqlite.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <tuple>
#include <utility>

#include "support/error.h"

namespace ucut::store {
namespace {

namespace fs = std::filesystem;

/// True when SQLite refused a statement for what it says, not for the file it works on: a syntax or logic
/// error, a broken constraint, a bad bind. The workspace's statements are written to run, so this is a bug.
bool statement_is_wrong(int rc) {
  switch (rc & 0xff) {
    case SQLITE_ERROR:
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
    case SQLITE_TOOBIG:
      return true;
    default:
      return false;
  }
}

/// What refused `rc` on the workspace file `path`, in words for the person who named the file (no SQL).
std::string refusal(int rc, const std::string& path) {
  switch (rc & 0xff) {
    case SQLITE_NOTADB:
      return fmt::format("'{}' is not a μCUTLASS workspace: it is not an SQLite database", path);
    case SQLITE_CORRUPT:
      return fmt::format("workspace '{}' is damaged: SQLite finds it malformed", path);
    case SQLITE_CANTOPEN:
      return fmt::format("cannot open workspace '{}': no such file, or no permission to open it", path);
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return fmt::format("cannot open workspace '{}': permission denied", path);
    case SQLITE_READONLY:
      return fmt::format("cannot write workspace '{}': the file or its folder is read-only", path);
    case SQLITE_FULL:
      return fmt::format("cannot write workspace '{}': the disk is full", path);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_PROTOCOL:
      return fmt::format(
          "workspace '{}' is busy: another process kept it locked for over 5 s; try again later", path);
    case SQLITE_NOMEM:
      return fmt::format("out of memory while reading workspace '{}'", path);
    case SQLITE_IOERR:
      return fmt::format("cannot read or write workspace '{}': the disk or file system failed ({})", path,
                         sqlite3_errstr(rc));
    default:
      return fmt::format("workspace '{}': {}", path, sqlite3_errstr(rc));
  }
}

/// `path` as an SQLite URI ("file:///abs/path?query"), every byte that could read as URI syntax escaped.
std::string file_uri(const std::string& path, const char* query) {
  std::string uri = "file://";
  for (unsigned char c : fs::absolute(path).string()) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '~')
      uri += static_cast<char>(c);
    else
      uri += fmt::format("%{:02X}", c);
  }
  return uri + "?" + query;
}

/// The file's size, modification time and whether its -wal exists: a writer changes at least one of them.
auto file_state(const std::string& path) {
  std::error_code ec;
  return std::tuple(fs::file_size(path, ec), fs::last_write_time(path, ec), fs::exists(path + "-wal", ec));
}

}  // namespace

Db Db::open(const std::string& path, bool create) {
  sqlite3* db = nullptr;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_close(db);
    throw WorkspaceError(refusal(rc, path));
  }
  sqlite3_extended_result_codes(db, 1);
  return Db(db, path);
}

Db Db::copy_of(const std::string& path) {
  // Copies the file with the backup API from a read-only connection. A file at rest (no -wal: its last writer
  // folded the log into it) is opened immutable, which takes no locks and leaves nothing behind; a file a
  // writer holds is read through its log with the writer's -wal and -shm, and so is one that changed while
  // it was copied.
  auto copy = [&](const char* query) {
    sqlite3* source = nullptr;
    int rc = sqlite3_open_v2(file_uri(path, query).c_str(), &source,
                             SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    Db from(source, path);
    if (rc != SQLITE_OK) throw WorkspaceError(refusal(rc, path));
    sqlite3_busy_timeout(source, 5000);
    Db memory = Db::open(":memory:");
    memory.path_ = path;
    sqlite3_backup* backup = sqlite3_backup_init(memory.handle(), "main", source, "main");
    if (!backup) memory.fail("backup of " + path);
    rc = sqlite3_backup_step(backup, -1);
    sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) throw WorkspaceError(refusal(rc, path));
    return memory;
  };
  auto before = file_state(path);
  if (!std::get<2>(before)) {
    Db memory = copy("mode=ro&immutable=1");
    if (file_state(path) == before) return memory;
  }
  return copy("mode=ro");
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
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
}

void Db::fail(const std::string& sql) const {
  int rc = sqlite3_extended_errcode(db_);
  UC_ASSERT(!statement_is_wrong(rc)) << "SQLite: " << sqlite3_errmsg(db_) << ", in `" << sql << "` on '"
                                     << path_ << "'";
  throw WorkspaceError(refusal(rc, path_));
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
