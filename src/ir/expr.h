// ir/expr.h — the typed form of an `expr(...)` epilogue stage: a postfix program over the chain's value `x`,
// constants and, in a family kernel's chain, its operands (`load(i)`), with the operators and functions of
// ir/expr_functions.def. Postfix keeps it flat for the device-side reference (eval/worker/ref_chain.h) and
// maps one-to-one onto visitor-tree nodes (emit/evt_builder.cpp) and the map emitter's expressions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ucut {

enum class ExprCode {
#define EXPR_OP(id, spelling, arity, functor) id,
#include "ir/expr_functions.def"
#undef EXPR_OP
};

/// What one `expr(...)` may hold (C414): deeper trees make CUTLASS's visitor templates nest past what nvcc
/// handles well, and the reference evaluates a program on a stack of kMaxExprDepth values
/// (ir/epilogue_math.h).
inline constexpr size_t kMaxExprOps = 32;
inline constexpr int kMaxExprDepth = 16;

struct ExprOp {
  ExprCode code = ExprCode::x;
  double value = 0;  // constants: the value; load: the operand's index
};

struct EpiExpr {
  std::vector<ExprOp> postfix;
  std::string text;  // canonical, fully parenthesized infix: what `ucutlass emit --stage=ir` and the config show
  int x_uses = 0;
};

struct ExprOpInfo {
  ExprCode code;
  std::string_view spelling;
  int arity;
  std::string_view functor;
};

const ExprOpInfo& expr_info(ExprCode c);
/// The function called `name` (relu, max, ...), or nullptr; operators and x are not functions.
const ExprOpInfo* find_expr_function(std::string_view name);
std::vector<std::string_view> expr_function_names();
/// Names of program steps in the canonical JSON ("x", "const", "neg", "+", "sigmoid", ...) and back.
std::string_view expr_program_name(ExprCode c);
std::optional<ExprCode> expr_code_of(std::string_view program_name);
/// The canonical infix text of a postfix program; `load(i)` reads as operand_names[i] (as `load(i)` when
/// there is no such name).
std::string expr_text(const std::vector<ExprOp>& postfix, const std::vector<std::string>& operand_names = {});

}  // namespace ucut
