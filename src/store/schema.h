// store/schema.h — the workspace's tables as SQL, and the version check every open runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/sqlite.h"

namespace ucut::store {

/// Bump with every change to kSchemaSql and teach apply_schema to migrate the older files (an attempts
/// column migrates itself: its `since` in store/attempt_fields.def). Version 2 added problems.inputs (how the
/// harness drew the operands), version 3 attempts.code_hash, version 4 the tables llm_calls (the model-call
/// ledger) and run_prompt_packs.
inline constexpr int kSchemaVersion = 4;

/// Every table and index; `schema_version` holds one row with the version the file was written with.
extern const std::string kSchemaSql;

/// The version in the schema_version table; nullopt without one.
std::optional<int64_t> stored_schema_version(Db& db);

/// Throws WorkspaceError, naming `path`, unless `db` is a workspace (it has the schema_version table) or,
/// with `empty_ok`, holds no table at all. Reads only.
void check_workspace(Db& db, const std::string& path, bool empty_ok);

/// Creates the tables in an empty database, migrates an older workspace to kSchemaVersion, or checks that an
/// existing one's version is kSchemaVersion; a newer version throws WorkspaceError naming `path` and both
/// versions.
void apply_schema(Db& db, const std::string& path);

}  // namespace ucut::store
