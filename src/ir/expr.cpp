// ir/expr.cpp — the expr_functions.def table and the canonical text of a program.
#include "ir/expr.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ucut {
namespace {

const std::vector<ExprOpInfo>& rows() {
  static const std::vector<ExprOpInfo> r = {
#define EXPR_OP(id, spelling, arity, functor) {ExprCode::id, spelling, arity, functor},
#include "ir/expr_functions.def"
#undef EXPR_OP
  };
  return r;
}

bool is_function(const ExprOpInfo& i) {
  return !i.spelling.empty() && i.code != ExprCode::x && (i.spelling[0] >= 'a' && i.spelling[0] <= 'z');
}

}  // namespace

const ExprOpInfo& expr_info(ExprCode c) { return rows()[static_cast<size_t>(c)]; }

const ExprOpInfo* find_expr_function(std::string_view name) {
  for (const ExprOpInfo& i : rows())
    if (is_function(i) && i.spelling == name) return &i;
  return nullptr;
}

std::vector<std::string_view> expr_function_names() {
  std::vector<std::string_view> out;
  for (const ExprOpInfo& i : rows())
    if (is_function(i)) out.push_back(i.spelling);
  return out;
}

std::string_view expr_program_name(ExprCode c) {
  if (c == ExprCode::constant) return "const";
  if (c == ExprCode::load) return "load";
  if (c == ExprCode::neg) return "neg";
  return expr_info(c).spelling;
}

std::optional<ExprCode> expr_code_of(std::string_view name) {
  for (const ExprOpInfo& i : rows())
    if (expr_program_name(i.code) == name) return i.code;
  return std::nullopt;
}

std::string expr_text(const std::vector<ExprOp>& postfix, const std::vector<std::string>& operand_names) {
  std::vector<std::string> stack;
  for (const ExprOp& op : postfix) {
    const ExprOpInfo& info = expr_info(op.code);
    if (op.code == ExprCode::x) {
      stack.push_back("x");
    } else if (op.code == ExprCode::constant) {
      stack.push_back(fmt::format("{:.9g}", op.value));
    } else if (op.code == ExprCode::load) {
      auto i = static_cast<size_t>(op.value);
      stack.push_back(i < operand_names.size() ? operand_names[i] : fmt::format("load({})", i));
    } else {
      std::vector<std::string> args(stack.end() - info.arity, stack.end());
      stack.resize(stack.size() - info.arity);
      if (op.code == ExprCode::neg) {
        stack.push_back(fmt::format("(-{})", args[0]));
      } else if (!is_function(info)) {
        stack.push_back(fmt::format("({} {} {})", args[0], info.spelling, args[1]));
      } else {
        stack.push_back(fmt::format("{}({})", info.spelling, fmt::join(args, ", ")));
      }
    }
  }
  return stack.empty() ? "" : stack.back();
}

}  // namespace ucut
