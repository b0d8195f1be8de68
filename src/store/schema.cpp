// store/schema.cpp — the workspace schema (store/schema.h). Column order is the order store/rows.cpp binds
// and reads, and export copies rows with SELECT *, so both sides of a transfer must have the same version.
#include "store/schema.h"

#include <fmt/format.h>

namespace ucut::store {

namespace {

/// "CREATE TABLE attempts (...);", its columns from store/attempt_fields.def.
std::string attempts_table_sql() {
  std::string out = "CREATE TABLE attempts (\n  id INTEGER PRIMARY KEY AUTOINCREMENT,\n";
  auto column = [&](const char* name, const char* definition, const char* comment) {
    out += std::string("  ") + name + " " + definition + "," +
           (*comment ? std::string("  -- ") + comment : "") + "\n";
  };
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) column(#name, sql, note);
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
  return out + "  UNIQUE (problem_id, config_hash)\n);";
}

/// Adds the attempt columns schema version `version` introduced (their `since`) to a file one version older.
void add_attempt_columns(Db& db, int version) {
#define ATTEMPT_FIELD(name, type, init, set_by, since, sql, note) \
  if (since == version) db.exec("ALTER TABLE attempts ADD COLUMN " #name " " sql);
#include "store/attempt_fields.def"
#undef ATTEMPT_FIELD
}

/// The model-call ledger and the runs' prompt packs: what version 4 added (created as is by its migration).
const std::string kLlmTablesSql = R"sql(
CREATE TABLE llm_calls (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  problem_id TEXT NOT NULL,  -- '' for a call about no single problem
  iteration INTEGER NOT NULL,
  role TEXT NOT NULL,
  seq INTEGER NOT NULL,  -- the call's number within (run, problem, iteration, role)
  request_hash TEXT NOT NULL,  -- sha256 of request_json
  model TEXT NOT NULL,
  status TEXT NOT NULL,  -- pending | ok | failed
  request_json TEXT NOT NULL,  -- the request body as sent: never headers, so never the API key
  response_json TEXT NOT NULL,
  error TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  attempts INTEGER NOT NULL,
  wall_s REAL NOT NULL,
  created TEXT NOT NULL,
  finished TEXT NOT NULL,
  UNIQUE (run_id, problem_id, iteration, role, seq, request_hash)  -- the call's key; also the by-run index
);
CREATE INDEX llm_calls_by_problem ON llm_calls(problem_id);

CREATE TABLE run_prompt_packs (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  name TEXT NOT NULL,
  version TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (run_id, name, hash)  -- a resumed run on a newer ucutlass may add a pack's next version
);
)sql";

}  // namespace

const std::string kSchemaSql = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);

CREATE TABLE problems (
  seq INTEGER PRIMARY KEY,  -- insertion order
  id TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL,
  family TEXT NOT NULL,
  shape_class TEXT NOT NULL,
  arch TEXT NOT NULL,
  flops REAL NOT NULL,
  min_bytes REAL NOT NULL,
  sol_tf32_ms REAL NOT NULL,
  sol_fp16_ms REAL NOT NULL,
  baseline_ms REAL,
  baseline_kind TEXT NOT NULL,
  tolerance REAL NOT NULL,
  inputs TEXT NOT NULL DEFAULT 'signed'  -- problem/input_draw.h's InputDraws::text(); last: version 2 added it
);

CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))),  -- the run's identity across workspaces
  started TEXT NOT NULL,
  finished TEXT NOT NULL,
  command TEXT NOT NULL,
  settings_json TEXT NOT NULL,
  machine TEXT NOT NULL
);

CREATE TABLE hypotheses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  problem_id TEXT NOT NULL REFERENCES problems(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  iteration INTEGER NOT NULL,
  bottleneck TEXT NOT NULL,
  move_json TEXT NOT NULL,
  rationale TEXT NOT NULL,
  predicted_speedup REAL NOT NULL,
  risk_impl REAL NOT NULL,
  risk_perf REAL NOT NULL,
  roi REAL NOT NULL,
  status TEXT NOT NULL,
  measured_speedup REAL
);
CREATE INDEX hypotheses_by_problem ON hypotheses(problem_id);
CREATE INDEX hypotheses_by_run ON hypotheses(run_id);

)sql" + attempts_table_sql() + R"sql(
CREATE INDEX attempts_by_status ON attempts(status);
CREATE INDEX attempts_by_run ON attempts(run_id);

CREATE TABLE lessons (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  family TEXT NOT NULL,
  shape_class TEXT NOT NULL,
  arch TEXT NOT NULL,
  move_json TEXT NOT NULL,
  text TEXT NOT NULL,
  expected_speedup REAL NOT NULL,
  measured_speedup REAL NOT NULL,
  problem_id TEXT NOT NULL REFERENCES problems(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  created TEXT NOT NULL
);
CREATE INDEX lessons_by_family ON lessons(family);
CREATE INDEX lessons_by_run ON lessons(run_id);

CREATE TABLE stages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  problem_id TEXT NOT NULL REFERENCES problems(id),
  iteration INTEGER NOT NULL,
  stage TEXT NOT NULL,
  json TEXT NOT NULL,
  created TEXT NOT NULL
);
CREATE INDEX stages_by_problem ON stages(problem_id, run_id);
CREATE INDEX stages_by_run ON stages(run_id);
)sql" + kLlmTablesSql;

std::optional<int64_t> stored_schema_version(Db& db) {
  Statement has(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'");
  has.step();
  if (has.int64(0) == 0) return std::nullopt;
  Statement get(db, "SELECT max(version) FROM schema_version");
  get.step();
  return get.int64(0);
}

void check_workspace(Db& db, const std::string& path, bool empty_ok) {
  if (stored_schema_version(db)) return;
  Statement tables(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
  tables.step();
  if (tables.int64(0) == 0 && empty_ok) return;
  throw WorkspaceError(fmt::format("'{}' is not a μCUTLASS workspace: {}", path,
                                   tables.int64(0) == 0 ? "it is empty (no table at all)"
                                                        : "an SQLite database without the workspace's "
                                                          "schema_version table"));
}

void apply_schema(Db& db, const std::string& path) {
  // IMMEDIATE: two processes opening a new file at once create the tables once.
  Transaction tx(db);
  if (auto version = stored_schema_version(db)) {
    // One version at a time. Version 2: every problem so far was measured on signed inputs; version 3:
    // attempts name the emitted code they measured (code_hash), earlier ones did not record it; version 4:
    // the model-call ledger and the runs' prompt packs, empty (no earlier run called a model).
    for (; *version >= 1 && *version < kSchemaVersion; ++*version) {
      if (*version == 1) db.exec("ALTER TABLE problems ADD COLUMN inputs TEXT NOT NULL DEFAULT 'signed'");
      if (*version == 3) db.exec(kLlmTablesSql);
      add_attempt_columns(db, static_cast<int>(*version) + 1);
      Statement(db, "UPDATE schema_version SET version = ?1").bind(1, *version + 1).execute();
    }
    if (*version > kSchemaVersion)
      throw WorkspaceError(
          fmt::format("workspace '{}' has schema version {}, newer than this ucutlass knows ({}); "
                      "use a newer ucutlass",
                      path, *version, kSchemaVersion));
    if (*version != kSchemaVersion)
      throw WorkspaceError(
          fmt::format("workspace '{}' has schema version {}, which no ucutlass wrote (1 to {})", path,
                      *version, kSchemaVersion));
  } else {
    db.exec(kSchemaSql);
    Statement(db, "INSERT INTO schema_version (version) VALUES (?1)").bind(1, kSchemaVersion).execute();
  }
  tx.commit();
}

}  // namespace ucut::store
