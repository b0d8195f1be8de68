// store/schema.h — the workspace's tables as SQL, and the version check every open runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "store/sqlite.h"

namespace ucut::store {

/// Bump with every change to kSchemaSql and teach apply_schema to migrate the older files (an attempts
/// column migrates itself: its `since` in store/attempt_fields.def). Version 2 added problems.inputs (how the
/// harness drew the operands), version 3 attempts.code_hash.
inline constexpr int kSchemaVersion = 3;

/// Every table and index; `schema_version` holds one row with the version the file was written with.
extern const std::string kSchemaSql;

/// The version in the schema_version table of `schema` ("main" or an attached alias); nullopt without one.
std::optional<int64_t> stored_schema_version(Db& db, const std::string& schema = "main");

/// Throws WorkspaceError, naming `path` and both versions, unless `version` is kSchemaVersion.
void check_schema_version(int64_t version, const std::string& path);

/// Creates the tables in an empty file, migrates an older file to kSchemaVersion, or checks that an existing file's
/// version is kSchemaVersion.
void apply_schema(Db& db, const std::string& path);

}  // namespace ucut::store
