// suite/parse.h — a suite problem file (TOML, docs/suites.md) → suite::Problem, with S001–S006 diagnostics that
// point at the offending key or value.
#pragma once

#include <optional>

#include "suite/problem.h"
#include "support/diag.h"

namespace ucut::suite {

/// Parses `src` (its name is the file's path). Every problem found is reported into `diags`; the result is
/// nullopt only when the text is not TOML at all, otherwise the problem as far as it could be read (check
/// `diags.has_errors()` before using it).
std::optional<Problem> parse_problem(const SourceFile& src, DiagEngine& diags);

}  // namespace ucut::suite
