// suite/check.h — validates suite problem files: parse (S001–S006), then run the chain on shapes (S010, S011).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "suite/report.h"
#include "support/diag.h"
#include "support/source.h"

namespace ucut::suite {

/// Every `*.toml` under the given files and folders (recursively), sorted; a path that does not exist is named
/// in `missing`.
std::vector<std::string> problem_files(const std::vector<std::string>& paths, std::vector<std::string>* missing);

/// Parses and analyzes one problem's text; the result is set only when no error was reported.
std::optional<Checked> check_problem(const SourceFile& src, DiagEngine& diags);

}  // namespace ucut::suite
