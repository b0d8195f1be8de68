// suite/problem_file.h — the problem of a command that takes one problem file (`run`, `sol`, `profile`): a problem
// file (docs/problems.md), or a suite problem (docs/suites.md, e.g. suites/kernelbench/...) lowered to a problem the
// way `optimize` lowers it (suite/lower.h). A suite file is told apart by its `[[op]]` chain.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "problem/problem.h"
#include "suite/report.h"

namespace ucut {

/// A suite problem file checked (its tolerance replaced when `tolerance` is set) and lowered to a problem.
struct LoweredProblem {
  suite::Checked checked;
  Problem problem;
};
/// The lowered problem, or why the file has none: it does not read, has errors (rendered), or does not lower yet.
std::variant<LoweredProblem, std::string> lower_problem_file(const std::string& path,
                                                             std::optional<double> tolerance = std::nullopt);

/// The problem of `path`, a problem file or a suite problem; nullopt with `error` naming the file, what is wrong
/// and what to do.
std::optional<Problem> load_problem_or_suite(const std::string& path, std::string* error);

}  // namespace ucut
