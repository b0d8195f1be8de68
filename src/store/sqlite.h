// store/sqlite.h — a small RAII layer over the SQLite C API for the workspace: a connection (to a file, or to
// an in-memory copy of one), prepared statements with bind/step/column helpers, and a transaction guard. When
// the file, the disk or another process refuses, it throws WorkspaceError in plain words naming the file; a
// statement SQLite cannot run (a syntax error, a broken constraint) is a bug: InternalError with the SQL.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

#include "store/error.h"

namespace ucut::store {

/// One connection. Movable, not copyable; closed by the destructor.
class Db {
 public:
  /// Opens `path` read-write, creating the file when `create` is set.
  static Db open(const std::string& path, bool create = true);
  /// An in-memory database holding a copy of the SQLite file `path`, which is read without changing it or its
  /// folder: no journal switch, no lock file, no -wal or -shm left behind. A file that a writer holds open
  /// (its -wal exists) is read through its write-ahead log. The copy is writable; nothing written to it
  /// reaches the file. path() names the file.
  static Db copy_of(const std::string& path);

  Db(Db&& o) noexcept;
  Db& operator=(Db&& o) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  /// Runs one or more statements that take no parameters; rows they return are ignored.
  void exec(const std::string& sql);
  int64_t last_insert_id() const { return sqlite3_last_insert_rowid(db_); }
  int64_t changes() const { return sqlite3_changes(db_); }
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

  /// Throws for the connection's last error: WorkspaceError saying in plain words what refused (the file, the
  /// disk, another process), or InternalError naming `sql` when the statement itself is wrong.
  [[noreturn]] void fail(const std::string& sql) const;

 private:
  Db(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
};

/// A prepared statement. Parameters are numbered from 1, columns from 0.
class Statement {
 public:
  Statement(Db& db, const std::string& sql);
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  Statement& bind(int i, int64_t v);
  Statement& bind(int i, int v) { return bind(i, int64_t{v}); }
  Statement& bind(int i, bool v) { return bind(i, int64_t{v}); }
  Statement& bind(int i, double v);
  Statement& bind(int i, const std::string& v);
  Statement& bind(int i, const char* v) { return bind(i, std::string(v)); }
  Statement& bind(int i, std::nullopt_t);
  template <class T>
  Statement& bind(int i, const std::optional<T>& v) {
    return v ? bind(i, *v) : bind(i, std::nullopt);
  }
  /// Binds the arguments to parameters first, first + 1, ...
  template <class... A>
  Statement& bind_from(int first, const A&... a) {
    (bind(first++, a), ...);
    return *this;
  }
  template <class... A>
  Statement& bind_all(const A&... a) {
    return bind_from(1, a...);
  }

  /// Advances; true when a row is ready to read.
  bool step();
  /// Steps to the end, for statements that return no rows.
  void execute();

  sqlite3_stmt* handle() const { return stmt_; }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string text(int col) const;
  std::optional<int64_t> opt_int64(int col) const;
  std::optional<double> opt_real(int col) const;

 private:
  void check_bind(int rc);
  Db& db_;
  std::string sql_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// BEGIN IMMEDIATE on construction, ROLLBACK in the destructor unless commit() ran (so on an exception).
/// Inside an open transaction it becomes a savepoint, so the workspace's own writes nest in a caller's.
class Transaction {
 public:
  explicit Transaction(Db& db);
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();
  void commit();

 private:
  Db& db_;
  bool nested_;
  bool done_ = false;
};

/// ATTACH `path` AS `alias` for the guard's lifetime. SQLite creates a missing file: check before.
class Attached {
 public:
  Attached(Db& db, const std::string& path, std::string alias);
  Attached(const Attached&) = delete;
  Attached& operator=(const Attached&) = delete;
  ~Attached();

 private:
  Db& db_;
  std::string alias_;
};

}  // namespace ucut::store
