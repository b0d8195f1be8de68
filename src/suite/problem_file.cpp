// suite/problem_file.cpp — see problem_file.h.
#include "suite/problem_file.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include "problem/read.h"
#include "suite/check.h"
#include "suite/lower.h"
#include "support/diag_render.h"

namespace ucut {
namespace {

/// A suite problem's chain is an array of [[op]] tables; a problem file's `op` is a string.
bool is_suite_problem(const std::string& path) {
  try {
    return toml::parse_file(path)["op"].is_array_of_tables();
  } catch (const std::exception&) {
    return false;  // load_problem says what is wrong with it (no TOML, a directory, missing)
  }
}

}  // namespace

std::variant<LoweredProblem, std::string> lower_problem_file(const std::string& path, std::optional<double> tolerance) {
  std::string error;
  auto f = suite::check_file(path, &error);
  if (!f) return error;
  if (!f->checked)
    return fmt::format("suite problem {} has errors (see `ucutlass suite check {}`):\n{}", path, path,
                       render_text(f->src, f->diags.diagnostics()));
  suite::Checked c = *f->checked;
  if (tolerance) c.problem.tolerance = *tolerance;
  auto lowered = suite::lower_to_problem(c);
  if (const auto* why = std::get_if<std::string>(&lowered))
    return fmt::format("suite problem {} has no harness problem yet: {}", path, *why);
  return LoweredProblem{std::move(c), std::move(std::get<Problem>(lowered))};
}

std::optional<Problem> load_problem_or_suite(const std::string& path, std::string* error) {
  if (!is_suite_problem(path)) return load_problem(path, error);
  auto lowered = lower_problem_file(path);
  if (const auto* why = std::get_if<std::string>(&lowered)) {
    *error = *why;
    return std::nullopt;
  }
  return std::get<LoweredProblem>(lowered).problem;
}

}  // namespace ucut
