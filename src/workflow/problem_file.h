// workflow/problem_file.h — a suite problem lowered to a harness problem (`optimize`, `search-compare`), and the
// problem of the commands that take one file (`profile`): a harness problem file
// (docs/problems.md), or a suite problem (docs/suites.md, e.g. suites/kernelbench/...) lowered to one the way
// `optimize` lowers it (suite::lower_to_harness). A suite file is told apart by its `[[op]]` chain.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "eval/problem.h"
#include "suite/lower.h"
#include "suite/report.h"

namespace ucut {

/// A suite problem file checked (its tolerance replaced when `tolerance` is set) and lowered to a harness problem.
struct LoweredProblem {
  suite::Checked checked;
  suite::Lowered lowered;
  Problem harness;
};
/// The lowered problem, or why the file has none: it does not read, has errors (rendered), or does not lower yet.
std::variant<LoweredProblem, std::string> lower_problem_file(const std::string& path,
                                                             std::optional<double> tolerance = std::nullopt);

/// The harness problem of `path`; nullopt with `error` naming the file, what is wrong and what to do.
std::optional<Problem> load_problem_or_suite(const std::string& path, std::string* error);

}  // namespace ucut
