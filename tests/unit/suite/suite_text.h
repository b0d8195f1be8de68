// tests/unit/suite/suite_text.h — suite problems in tests: a chain written inline as the body of a problem
// file, or a file of suites/, checked as `ucutlass suite check` checks it. Header-only because the unit-test
// target globs only
// *_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "../check/golden_cases.h"
#include "suite/check.h"

namespace ucut::suite::test {

/// Checks a chain written as the body of a problem file (inputs and ops).
inline Checked checked(const std::string& body) {
  SourceFile src("t.toml", "title = \"t\"\nfamily = \"conv\"\n" + body);
  DiagEngine diags;
  auto c = check_problem(src, diags);
  std::string found;
  for (const Diagnostic& d : diags.diagnostics()) found += "\n  " + d.message;
  EXPECT_TRUE(c.has_value()) << found;
  return c.value_or(Checked{});
}

/// Checks the suite file at `path`, relative to the source tree.
inline Checked checked_file(const std::string& path) {
  std::string error;
  auto file = check_file((golden::source_dir() / path).string(), &error);
  EXPECT_TRUE(file && file->checked) << path << ": " << error;
  return file && file->checked ? *file->checked : Checked{};
}

}  // namespace ucut::suite::test
