// dsl/ast.h — the syntax tree of a spec. Purely syntactic (as in MLIR's Toy): names are strings here;
// ir/lower.cpp resolves them against the tables. Every node carries the Span it was parsed from.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "support/source.h"

namespace ucut {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// One argument of a call: `128` (positional), `beta = 0.5` (keyword) or `A: bf16[M,K] row` (declaration).
struct Arg {
  enum class Kind { positional, keyword, declaration };
  Kind kind = Kind::positional;
  Spanned<std::string> key;  // empty for positional arguments
  ExprPtr value;
  Span span;
  /// A syntax error is inside it (reported): `value` holds what parsed (0 where a number was malformed), and
  /// lowering skips the argument without a word of its own.
  bool incomplete = false;
};

/// `name`, `name(args)`; `has_parens` tells `relu` from `relu()`.
struct Call {
  Spanned<std::string> name;
  std::vector<Arg> args;
  bool has_parens = false;
  Span span;
  /// A syntax error is inside it (reported): an argument is incomplete or lost, the list never closes, or the name
  /// is missing (empty). Lowering skips what it cannot read without a word of its own.
  bool incomplete = false;
};

struct NumberLit {
  double value = 0;
  bool is_integer = false;
  int64_t int_value = 0;  // valid when is_integer
};

struct NameRef {
  std::string name;
};

/// One extent of a tensor type: a symbol (`M`) or a fixed size (`4096`).
struct Dim {
  std::string symbol;  // empty when fixed
  int64_t size = 0;
  Span span;
};

/// `bf16[M,K] row align(8) scaled` — element type, extents, then modifiers (identifiers or calls).
struct TensorType {
  Spanned<std::string> dtype;
  std::vector<Dim> dims;
  std::vector<Call> modifiers;
};

struct Unary {
  char op = '-';
  ExprPtr operand;
};

struct Binary {
  char op = '+';  // + - * /
  ExprPtr lhs, rhs;
};

/// `(N, C)`: two values or more in parentheses (a `rownorm`'s `over`).
struct Tuple {
  std::vector<ExprPtr> items;
};

struct Expr {
  Span span;
  std::variant<NumberLit, NameRef, Call, TensorType, Unary, Binary, Tuple> node;
};

/// `kernel NAME : ARCH  op(...) .config(...)* (>> stage)*`. After a syntax error (reported) the name or arch is
/// empty when it did not parse, and `incomplete` says a configuration call or epilogue stage may be lost: lowering
/// then reads the parts that parsed and nothing that needs the whole kernel.
struct KernelAst {
  Span span;         // the header `kernel NAME : ARCH`
  Span whole;        // the whole kernel
  Spanned<std::string> name;
  Spanned<std::string> arch;
  Call op;
  std::vector<Call> configs;
  std::vector<Call> stages;
  bool incomplete = false;
};

/// `pipeline NAME : ARCH` — the header of a spec whose kernels are its stages (`stage NAME = op ...`); the arch is
/// empty when it did not parse (reported).
struct PipelineHeader {
  Span span;
  Span whole;
  Spanned<std::string> name;
  Spanned<std::string> arch;
};

/// One kernel, or a pipeline's stages in order (each a KernelAst named by its stage, with the pipeline's arch).
struct SpecAst {
  std::vector<KernelAst> kernels;
  std::optional<PipelineHeader> pipeline;
};

/// Deep copies (a pipeline stage that reads an earlier stage's output is lowered from a copy holding its type).
ExprPtr clone_expr(const Expr& e);
Call clone_call(const Call& c);

/// Indented tree with spans (`ucutlass emit --stage=ast`); spans are printed as line:col.
std::string dump_ast(const SourceFile& src, const SpecAst& ast);

}  // namespace ucut
