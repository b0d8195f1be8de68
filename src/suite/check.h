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

/// One problem file read and checked: its text (for rendering diagnostics), what was reported, the result.
struct FileCheck {
  SourceFile src;
  DiagEngine diags;
  std::optional<Checked> checked;
};

/// Reads and checks `path`; nullopt with `*error` when the file cannot be read.
std::optional<FileCheck> check_file(const std::string& path, std::string* error);

}  // namespace ucut::suite
