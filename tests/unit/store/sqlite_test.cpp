// tests/unit/store/sqlite_test.cpp — the SQLite layer (store/sqlite.h): the transaction guard commits, rolls
// back when an exception leaves its scope, and nests as a savepoint; values round-trip through bind and
// column.
#include "store/sqlite.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "fixture.h"

namespace ucut::store {
namespace {

using namespace testing;

int64_t rows(Db& db) {
  Statement s(db, "SELECT count(*) FROM t");
  s.step();
  return s.int64(0);
}

TEST(WorkspaceSqlite, TransactionCommitsRollsBackAndNests) {
  TempDir dir;
  Db db = Db::open(dir.file("t.db"));
  db.exec("CREATE TABLE t (v INTEGER)");
  {
    Transaction tx(db);
    db.exec("INSERT INTO t VALUES (1)");
    tx.commit();
  }
  EXPECT_THROW(
      {
        Transaction tx(db);
        db.exec("INSERT INTO t VALUES (2)");
        throw std::runtime_error("interrupted");
      },
      std::runtime_error);
  EXPECT_EQ(rows(db), 1);
  {
    Transaction outer(db);
    db.exec("INSERT INTO t VALUES (3)");
    try {
      Transaction inner(db);
      db.exec("INSERT INTO t VALUES (4)");
      throw std::runtime_error("inner fails");
    } catch (const std::runtime_error&) {
    }
    {
      Transaction inner(db);
      db.exec("INSERT INTO t VALUES (5)");
      inner.commit();
    }
    outer.commit();
  }
  Statement s(db, "SELECT v FROM t ORDER BY v");
  std::vector<int64_t> got;
  while (s.step()) got.push_back(s.int64(0));
  EXPECT_EQ(got, (std::vector<int64_t>{1, 3, 5}));
}

TEST(WorkspaceSqlite, BindAndColumnRoundTrip) {
  TempDir dir;
  Db db = Db::open(dir.file("t.db"));
  db.exec("CREATE TABLE v (i INTEGER, d REAL, s TEXT, n REAL, b INTEGER)");
  std::string with_nul("a\0b", 3);
  Statement(db, "INSERT INTO v VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind_all(int64_t{1} << 40, 2.5, with_nul, std::optional<double>(), true)
      .execute();
  Statement s(db, "SELECT i, d, s, n, b FROM v");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.int64(0), int64_t{1} << 40);
  EXPECT_EQ(s.real(1), 2.5);
  EXPECT_EQ(s.text(2), with_nul);
  EXPECT_FALSE(s.opt_real(3));
  EXPECT_EQ(s.opt_int64(4), 1);
  EXPECT_FALSE(s.step());
  EXPECT_THROW(Db::open(dir.file("absent.db"), false), WorkspaceError);
}

}  // namespace
}  // namespace ucut::store
