// dsl/ast_clone.cpp — deep copies of expressions (the AST owns its children through unique_ptr).
#include "dsl/ast.h"

namespace ucut {

Call clone_call(const Call& c) {
  Call out;
  out.name = c.name;
  out.has_parens = c.has_parens;
  out.span = c.span;
  out.incomplete = c.incomplete;
  for (const Arg& a : c.args) {
    Arg copy;
    copy.kind = a.kind;
    copy.key = a.key;
    copy.value = clone_expr(*a.value);
    copy.span = a.span;
    copy.incomplete = a.incomplete;
    out.args.push_back(std::move(copy));
  }
  return out;
}

ExprPtr clone_expr(const Expr& e) {
  auto out = std::make_unique<Expr>();
  out->span = e.span;
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Call>) {
          out->node = clone_call(n);
        } else if constexpr (std::is_same_v<T, TensorType>) {
          TensorType t;
          t.dtype = n.dtype;
          t.dims = n.dims;
          for (const Call& m : n.modifiers) t.modifiers.push_back(clone_call(m));
          out->node = std::move(t);
        } else if constexpr (std::is_same_v<T, Unary>) {
          out->node = Unary{n.op, clone_expr(*n.operand)};
        } else if constexpr (std::is_same_v<T, Binary>) {
          out->node = Binary{n.op, clone_expr(*n.lhs), clone_expr(*n.rhs)};
        } else if constexpr (std::is_same_v<T, Tuple>) {
          Tuple t;
          for (const ExprPtr& item : n.items) t.items.push_back(clone_expr(*item));
          out->node = std::move(t);
        } else {
          out->node = n;
        }
      },
      e.node);
  return out;
}

}  // namespace ucut
