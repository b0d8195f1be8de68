// tests/unit/eval/problem_config.h — the canonical config of a problem written inline, as the worker reads it.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../problem/problem_text.h"
#include "ir/canonical.h"

namespace ucut::test {

/// `operands`: the problem file's a/b/d lines; `shape`: its one shape (a convolution's needs its geometry).
inline nlohmann::json problem_config(const std::string& op, const std::string& epilogue, const std::string& operands,
                                     const std::string& shape = "{ m = 64, n = 64, k = 64 }") {
  std::string err;
  auto p = parse_problem("name = \"t\"\nop = \"" + op + "\"\n" + operands + "epilogue = \"" + epilogue +
                             "\"\nshapes = [ " + shape + " ]\n",
                         "t.toml", &err);
  EXPECT_TRUE(p) << err;
  return p ? canonical_config(p->semantics) : nlohmann::json{};
}

}  // namespace ucut::test
