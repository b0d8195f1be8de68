// support/files.h — small host utilities the reports and builders share.
#pragma once

#include <optional>
#include <string>

namespace ucut {

/// The whole file, or nullopt when it cannot be opened.
std::optional<std::string> read_file(const std::string& path);

/// Now, as ISO 8601 UTC: "2026-12-01T18:00:00Z" (the date line of every report).
std::string utc_now();

}  // namespace ucut
