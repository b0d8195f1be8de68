// llm/schema_check.h — checks a value against a JSON Schema: a tool call's arguments against the tool's input
// schema (agent/tools.def), a model's answer against its prompt pack's answer schema (prompts/*/schemas/). The
// subset those schemas use (type, properties, required, additionalProperties: false, enum, minimum, maximum,
// items, minItems, maxItems, minLength, maxLength), no more.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ucut::llm {

/// What is wrong with `value` under `schema`, e.g. "`trials` must be an integer"; nullopt when it conforms.
/// A keyword outside the subset is ignored.
std::optional<std::string> schema_violation(const nlohmann::json& schema, const nlohmann::json& value);

}  // namespace ucut::llm
