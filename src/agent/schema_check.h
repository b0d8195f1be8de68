// agent/schema_check.h — checks a tool's arguments against its input schema: the subset of JSON Schema the
// tool table uses (type, properties, required, additionalProperties: false, enum, minimum, maximum), no more.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ucut::agent {

/// What is wrong with `value` under `schema`, e.g. "`trials` must be an integer"; nullopt when it conforms.
/// A keyword outside the subset is ignored.
std::optional<std::string> schema_violation(const nlohmann::json& schema, const nlohmann::json& value);

}  // namespace ucut::agent
