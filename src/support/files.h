// support/files.h — small host utilities the reports and builders share.
#pragma once

#include <optional>
#include <string>

namespace ucut {

/// The whole file, or nullopt when it cannot be opened.
std::optional<std::string> read_file(const std::string& path);

/// Writes `text` to `path` (replacing it) and flushes; false when it cannot be opened or written.
bool write_file(const std::string& path, const std::string& text);

/// Now, as ISO 8601 UTC: "2026-12-01T18:00:00Z" (the date line of every report).
std::string utc_now();

/// Seconds from one utc_now() stamp to a later one; nullopt when either is not in that form.
std::optional<double> seconds_between(const std::string& from, const std::string& to);

}  // namespace ucut
