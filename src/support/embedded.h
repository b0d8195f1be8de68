// support/embedded.h — files compiled into the binary (cmake/embed.cmake): the emitter's templates
// (emit/templates/) and the rule pages (docs/rules/), looked up by file name.
#pragma once

#include <optional>
#include <string_view>

namespace ucut {

std::optional<std::string_view> embedded_file(std::string_view name);

}  // namespace ucut
