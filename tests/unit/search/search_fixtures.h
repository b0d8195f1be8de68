// tests/unit/search/search_fixtures.h — repo specs and problems for the search tests, and an independent
// re-check of a candidate (parse, lower, check, the problem's semantic and shape checks, the hash).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "../problem/problem_text.h"
#include "../test_paths.h"
#include "compiler/pipeline.h"
#include "engine/search/candidate.h"
#include "ir/canonical.h"
#include "problem/match.h"

namespace ucut::search::testing {

inline std::string repo_text(const std::string& rel) {
  std::ifstream in(ucut::test_paths::source_dir() + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline Problem repo_problem(const std::string& rel) {
  std::string error;
  auto p = load_problem(ucut::test_paths::source_dir() + "/" + rel, &error);
  if (!p) ADD_FAILURE() << rel << ": " << error;
  return p ? *p : Problem{};
}

inline Problem inline_problem(const std::string& toml, const std::string& name = "inline") {
  std::string error;
  auto p = parse_problem(toml, name, &error);
  if (!p) ADD_FAILURE() << error;
  return p ? *p : Problem{};
}

/// A candidate is what the harness would accept: it checks clean, computes the problem, runs every shape, and its
/// hash is its config's.
inline void expect_valid(const Candidate& c, const Problem& problem) {
  SourceFile src("candidate.ucut", c.spec);
  Compilation comp = compile_spec(src, StopAfter::check);
  ASSERT_TRUE(comp.ok()) << c.spec;
  ASSERT_TRUE(comp.config.has_value()) << c.spec;
  EXPECT_EQ(config_hash(*comp.config), c.config_hash);
  EXPECT_FALSE(semantic_mismatch(problem, *comp.config).has_value()) << c.spec;
  for (const GemmShape& s : problem.shapes) EXPECT_FALSE(shape_violation(*comp.config, s).has_value()) << c.spec;
  EXPECT_EQ(precision_change(problem, *comp.config), c.precision_change);
}

}  // namespace ucut::search::testing
