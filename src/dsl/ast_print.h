// dsl/ast_print.h — syntax trees printed back as spec text (the inverse of the parser, up to spacing and
// parentheses): what a problem file's `a = "bf16 row"` and `epilogue = "bias(col) >> relu"` hold when a problem is
// written out (problem/print.h).
#pragma once

#include <string>
#include <vector>

#include "dsl/ast.h"

namespace ucut {

/// `1e-05`, `x / 6 + 0.5`, `max(x, 0)`, `bf16[M,K] row`: parentheses only where precedence needs them.
std::string print_expr(const Expr& e);
/// `relu`, `bias(col)`, `hardtanh(-1, 1)`, `store(D: bf16[M,N] row)`.
std::string print_call(const Call& c);
/// A chain's stages joined by ` >> `; "" for none.
std::string print_chain(const std::vector<Call>& stages);
/// An operand's element type and modifiers, with its extents when it has any: `bf16 row`, `f32[M,K] col align(4)`.
std::string print_tensor_type(const TensorType& t);

}  // namespace ucut
