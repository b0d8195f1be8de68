// dsl/ast_build.h — syntax built by code instead of parsed: a problem's operator call with its operand declarations
// (problem/semantics.h), a suite problem's later ops as epilogue stages (suite/lower.h). Each helper makes the tree
// the parser makes for the same text (a negative number is a negation, `2` an integer literal), every node at `at`.
#pragma once

#include <string>
#include <vector>

#include "dsl/ast.h"

namespace ucut {

ExprPtr number_expr(double v, Span at);
ExprPtr name_expr(std::string name, Span at);
ExprPtr call_expr(Call c);
ExprPtr binary_expr(char op, ExprPtr lhs, ExprPtr rhs);
ExprPtr tensor_expr(TensorType t, Span at);

/// `name` without parentheses (`relu`).
Call bare_call(std::string name, Span at);
/// `name(a, b, ...)` with positional arguments.
Call call_of(std::string name, std::vector<ExprPtr> args, Span at);
/// `key: value` and `key = value`.
Arg declaration_arg(std::string key, ExprPtr value, Span at);
Arg keyword_arg(std::string key, ExprPtr value, Span at);

}  // namespace ucut
