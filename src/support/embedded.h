// support/embedded.h — files compiled into the binary (cmake/embed.cmake): the emitter's templates
// (emit/templates/), the rule pages (docs/rules/), the DSL docs, the examples and the prompt packs
// (prompts/), looked up by file name or by their path from the repository root.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ucut {

/// The first embedded file named `name` (no folder): for files whose names are unique (templates, rule
/// pages).
std::optional<std::string_view> embedded_file(std::string_view name);
/// The embedded file at `path` from the repository root ("prompts/dsl/pack.toml").
std::optional<std::string_view> embedded_path(std::string_view path);
/// Every embedded file's path from the repository root.
std::vector<std::string_view> embedded_paths();

}  // namespace ucut
