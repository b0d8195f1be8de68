// dsl/ast_print.cpp — see ast_print.h.
#include "dsl/ast_print.h"

#include <fmt/format.h>

namespace ucut {
namespace {

/// Binding strength: sums 1, products 2, everything else (atoms, calls, negation) 3.
int precedence(const Expr& e) {
  if (const auto* b = std::get_if<Binary>(&e.node)) return b->op == '+' || b->op == '-' ? 1 : 2;
  return 3;
}

std::string operand(const Expr& e, bool parenthesize) {
  std::string text = print_expr(e);
  return parenthesize ? "(" + text + ")" : text;
}

std::string number(const NumberLit& n) {
  return n.is_integer ? fmt::format("{}", n.int_value) : fmt::format("{}", n.value);
}

std::string dims(const std::vector<Dim>& ds) {
  std::string out;
  for (const Dim& d : ds) out += (out.empty() ? "" : ",") + (d.symbol.empty() ? std::to_string(d.size) : d.symbol);
  return out;
}

}  // namespace

std::string print_expr(const Expr& e) {
  return std::visit(
      [&](const auto& n) -> std::string {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, NumberLit>) {
          return number(n);
        } else if constexpr (std::is_same_v<T, NameRef>) {
          return n.name;
        } else if constexpr (std::is_same_v<T, Call>) {
          return print_call(n);
        } else if constexpr (std::is_same_v<T, TensorType>) {
          return print_tensor_type(n);
        } else if constexpr (std::is_same_v<T, Unary>) {
          return std::string(1, n.op) + operand(*n.operand, precedence(*n.operand) < 3);
        } else if constexpr (std::is_same_v<T, Tuple>) {
          std::string items;
          for (const ExprPtr& item : n.items) items += (items.empty() ? "" : ", ") + print_expr(*item);
          return "(" + items + ")";
        } else {
          // Left-associative, and printed so it parses back to the same tree: the left operand needs parentheses
          // below this precedence, the right one at it too (`a - (b - c)`, `a + (b + c)`).
          int p = precedence(e);
          return fmt::format("{} {} {}", operand(*n.lhs, precedence(*n.lhs) < p), n.op,
                             operand(*n.rhs, precedence(*n.rhs) <= p));
        }
      },
      e.node);
}

std::string print_call(const Call& c) {
  if (!c.has_parens) return c.name.value;
  std::string args;
  for (const Arg& a : c.args) {
    if (!args.empty()) args += ", ";
    switch (a.kind) {
      case Arg::Kind::positional: break;
      case Arg::Kind::keyword: args += a.key.value + " = "; break;
      case Arg::Kind::declaration: args += a.key.value + ": "; break;
    }
    args += print_expr(*a.value);
  }
  return fmt::format("{}({})", c.name.value, args);
}

std::string print_chain(const std::vector<Call>& stages) {
  std::string out;
  for (const Call& c : stages) out += (out.empty() ? "" : " >> ") + print_call(c);
  return out;
}

std::string print_tensor_type(const TensorType& t) {
  std::string out = t.dtype.value;
  if (!t.dims.empty()) out += "[" + dims(t.dims) + "]";
  for (const Call& m : t.modifiers) out += " " + print_call(m);
  return out;
}

}  // namespace ucut
