// tests/unit/store/schema_test.cpp — store/schema.cpp: the attempts table generated from
// store/attempt_fields.def is, byte for byte, the one the committed workspaces hold, and every column's
// `since` is a schema version.
#include "store/schema.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "../test_paths.h"
#include "fixture.h"

namespace ucut::store {
namespace {

using namespace testing;

std::string stored_sql(Db& db, const std::string& table) {
  Statement s(db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1");
  s.bind(1, table);
  EXPECT_TRUE(s.step()) << table;
  return s.text(0);
}

TEST(WorkspaceSchema, AttemptsTableIsTheOneCommittedWorkspacesHold) {
  // Created at schema version 3 by the hand-written CREATE TABLE the table replaced; read from a temp copy.
  TempDir dir;
  std::filesystem::copy_file(ucut::test_paths::source_dir() + "/bench/results/optimize_1e-2_phases/phopt.db",
                             dir.file("c.db"));
  Db committed = Db::open(dir.file("c.db"), false);
  ASSERT_EQ(stored_schema_version(committed), 3);
  Workspace ws = Workspace::open(dir.file("w.db"));
  EXPECT_EQ(stored_sql(ws.connection(), "attempts"), stored_sql(committed, "attempts"));
}

TEST(WorkspaceSchema, EveryAttemptColumnIsFromAKnownVersion) {
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) \
  EXPECT_TRUE(since >= 1 && since <= kSchemaVersion) << #name;
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
}

}  // namespace
}  // namespace ucut::store
