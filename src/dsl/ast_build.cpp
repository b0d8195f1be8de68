// dsl/ast_build.cpp — see ast_build.h.
#include "dsl/ast_build.h"

#include <fmt/format.h>

#include <cmath>

namespace ucut {
namespace {

ExprPtr node(Span at, decltype(Expr::node) n) {
  auto e = std::make_unique<Expr>();
  e->span = at;
  e->node = std::move(n);
  return e;
}

}  // namespace

ExprPtr number_expr(double v, Span at) {
  if (v < 0 || std::signbit(v)) return node(at, Unary{'-', number_expr(-v, at)});
  NumberLit n;
  n.value = v;
  std::string text = fmt::format("{}", v);  // what print_expr writes, read back as the parser reads it
  n.is_integer = text.find_first_not_of("0123456789") == std::string::npos;
  if (n.is_integer) n.int_value = static_cast<int64_t>(v);
  return node(at, n);
}

ExprPtr name_expr(std::string name, Span at) { return node(at, NameRef{std::move(name)}); }

ExprPtr call_expr(Call c) {
  Span at = c.span;
  if (!c.has_parens) return node(at, NameRef{c.name.value});  // as parsed: a bare name is a reference
  return node(at, std::move(c));
}

ExprPtr binary_expr(char op, ExprPtr lhs, ExprPtr rhs) {
  Span at = lhs->span.to(rhs->span);
  return node(at, Binary{op, std::move(lhs), std::move(rhs)});
}

ExprPtr tensor_expr(TensorType t, Span at) { return node(at, std::move(t)); }

Call bare_call(std::string name, Span at) {
  Call c;
  c.name = {std::move(name), at};
  c.span = at;
  return c;
}

Call call_of(std::string name, std::vector<ExprPtr> args, Span at) {
  Call c = bare_call(std::move(name), at);
  c.has_parens = true;
  for (ExprPtr& a : args) {
    Arg arg;
    arg.span = a->span;
    arg.value = std::move(a);
    c.args.push_back(std::move(arg));
  }
  return c;
}

namespace {

Arg keyed(Arg::Kind kind, std::string key, ExprPtr value, Span at) {
  Arg a;
  a.kind = kind;
  a.key = {std::move(key), at};
  a.value = std::move(value);
  a.span = at;
  return a;
}

}  // namespace

Arg declaration_arg(std::string key, ExprPtr value, Span at) {
  return keyed(Arg::Kind::declaration, std::move(key), std::move(value), at);
}

Arg keyword_arg(std::string key, ExprPtr value, Span at) {
  return keyed(Arg::Kind::keyword, std::move(key), std::move(value), at);
}

}  // namespace ucut
