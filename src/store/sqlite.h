// store/sqlite.h — a small RAII layer over the SQLite C API for the workspace: a connection, prepared
// statements with bind/step/column helpers, and a transaction guard. Every failure throws WorkspaceError
// with SQLite's message, the file and the SQL.
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

  /// Throws WorkspaceError for the connection's last error, naming the file and `sql`.
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
