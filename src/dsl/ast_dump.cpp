// dsl/ast_dump.cpp — prints the AST with the line:col of every node (`ucutlass emit --stage=ast`).
#include <fmt/format.h>

#include "dsl/ast.h"

namespace ucut {
namespace {

class Dumper {
 public:
  explicit Dumper(const SourceFile& src) : src_(src) {}

  std::string run(const SpecAst& ast) {
    if (ast.pipeline)
      line(0, fmt::format("Pipeline '{}' arch '{}'", ast.pipeline->name.value, ast.pipeline->arch.value),
           ast.pipeline->span);
    for (const KernelAst& k : ast.kernels) {
      line(0, fmt::format("{} '{}' arch '{}'", ast.pipeline ? "Stage" : "Kernel", k.name.value, k.arch.value), k.span);
      line(1, "Op", k.op.span);
      call(2, k.op);
      for (const Call& c : k.configs) {
        line(1, "Config", c.span);
        call(2, c);
      }
      for (const Call& c : k.stages) {
        line(1, "Stage", c.span);
        call(2, c);
      }
    }
    return out_;
  }

 private:
  void line(int indent, const std::string& text, Span span) {
    auto [l, c] = src_.line_col(span.begin);
    out_ += fmt::format("{}{} @{}:{}\n", std::string(static_cast<size_t>(indent) * 2, ' '), text, l, c);
  }

  void call(int indent, const Call& c) {
    line(indent, fmt::format("Call '{}'{}", c.name.value, c.has_parens ? "()" : ""), c.name.span);
    for (const Arg& a : c.args) {
      const char* kind = a.kind == Arg::Kind::declaration ? "Decl" : a.kind == Arg::Kind::keyword ? "Keyword" : "Pos";
      line(indent + 1, a.key.value.empty() ? kind : fmt::format("{} '{}'", kind, a.key.value), a.span);
      expr(indent + 2, *a.value);
    }
  }

  void expr(int indent, const Expr& e) {
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, NumberLit>) {
            line(indent, n.is_integer ? fmt::format("Int {}", n.int_value) : fmt::format("Number {}", n.value), e.span);
          } else if constexpr (std::is_same_v<T, NameRef>) {
            line(indent, fmt::format("Name '{}'", n.name), e.span);
          } else if constexpr (std::is_same_v<T, Call>) {
            call(indent, n);
          } else if constexpr (std::is_same_v<T, TensorType>) {
            std::string dims;
            for (const Dim& d : n.dims) dims += (dims.empty() ? "" : ",") + (d.symbol.empty() ? std::to_string(d.size) : d.symbol);
            line(indent, fmt::format("Tensor {}[{}]", n.dtype.value, dims), e.span);
            for (const Call& m : n.modifiers) call(indent + 1, m);
          } else if constexpr (std::is_same_v<T, Unary>) {
            line(indent, "Neg", e.span);
            expr(indent + 1, *n.operand);
          } else if constexpr (std::is_same_v<T, Binary>) {
            line(indent, fmt::format("BinOp {}", n.op), e.span);
            expr(indent + 1, *n.lhs);
            expr(indent + 1, *n.rhs);
          } else if constexpr (std::is_same_v<T, Tuple>) {
            line(indent, "Tuple", e.span);
            for (const ExprPtr& item : n.items) expr(indent + 1, *item);
          }
        },
        e.node);
  }

  const SourceFile& src_;
  std::string out_;
};

}  // namespace

std::string dump_ast(const SourceFile& src, const SpecAst& ast) { return Dumper(src).run(ast); }

}  // namespace ucut
