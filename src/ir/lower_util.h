// ir/lower_util.h — helpers shared by the lowering files: reading values out of AST expressions.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.h"
#include "ir/kernel_config.h"
#include "support/diag.h"

namespace ucut::lowering {

/// Unwinds lowering of one construct after its diagnostic was reported.
struct LowerError {};

/// Lowers one part of a spec: false when it threw LowerError (its diagnostics are reported), so the caller goes on
/// with the parts that do not depend on it and one run reports every independent error.
template <class Lowering>
bool attempt(Lowering&& lower_part) {
  try {
    lower_part();
    return true;
  } catch (const LowerError&) {
    return false;
  }
}

const std::string* as_name(const Expr& e);
const TensorType* as_tensor(const Expr& e);
const Call* as_call(const Expr& e);
/// Folds a constant numeric expression (`-1`, `1/3`, `2 * 0.5`); nullopt if it is not one.
std::optional<double> as_number(const Expr& e);
std::optional<int64_t> as_integer(const Expr& e);
/// `true` or `false`, the value of a flag keyword (`exclusive = true`); nullopt for any other name.
std::optional<bool> find_flag(std::string_view name);

/// Reads a positive integer argument or reports `rule` (L009 kind, L016 range) and throws LowerError.
int expect_int(const Arg& a, std::string_view what, int lo, int hi, DiagEngine& diags);

/// Resolves a dtype spelling or reports L003 with a suggestion.
DType expect_dtype(const std::string& spelling, Span span, DiagEngine& diags);

/// Resolves the header's architecture or reports L001 with a suggestion.
Spanned<Arch> lower_arch(const Spanned<std::string>& arch, DiagEngine& diags);

/// What a family kernel's chain reads by name (ir/memop.h): `expr(...)` reads any operand, an activation's
/// parameter a scalar.
struct ChainOperands {
  std::vector<std::string> names;  // in operand order: `load(i)` reads names[i]
  size_t inputs = 0;               // names[0, inputs) are tensors, the rest run-time scalars
};

/// The `>> stage` calls of `k` as EpiOps in source order (lower_epilogue.cpp), each stage lowered on its own
/// so every stage's errors are reported; then the chain as a whole: it ends with exactly one store (C403,
/// L014, whose hint appends `store_usage`). `operands`: a family kernel's, which its stages may name; GEMM
/// and convolution chains have none, so a name there stays an error (C413, C402).
std::vector<EpiOp> lower_chain(const KernelAst& k, std::string_view store_usage, DiagEngine& diags,
                               const ChainOperands* operands = nullptr);

/// An expression over a family kernel's operands outside the chain (a `reduce`'s `of = X * Y`), lowered as
/// `expr(...)`'s is (C413 for an unknown name, C414 past the visitor tree's limits); `x` is the first input.
std::shared_ptr<const EpiExpr> lower_operand_expr(const Expr& e, const ChainOperands& operands,
                                                  DiagEngine& diags);

/// Lowers `name: dtype[dims] modifiers` into a TensorDecl. `operand`: the operator's A or B, which may say `from(T)`.
TensorDecl lower_tensor(const Arg& decl, DiagEngine& diags, bool operand = false);

/// Convolutions (lower_conv.cpp):
/// X[N,...,C] and W[K,...,C] of a convolution: ranks, the shared channel extent, channels-last layouts (implied
/// layouts become channels_last).
void check_conv_operands(KernelConfig& cfg, DiagEngine& diags);
/// An output-shaped tensor of a convolution (store, residual, aux_store): Y[N,...,K], channels-last.
void check_conv_output(const KernelConfig& cfg, TensorDecl& t, DiagEngine& diags);
/// GEMM matrices are row- or column-major: a channels-last declaration on one is an error (L017).
void check_matrix_layout(const KernelConfig& cfg, const TensorDecl& t, DiagEngine& diags);

/// Reports L006 with `message` if `key` was seen, records it otherwise.
void note_unique(std::vector<std::pair<std::string, Span>>& seen, const std::string& key, Span span,
                 std::string message, DiagEngine& diags);

/// Reports an unknown-name diagnostic: "did you mean" the nearest of `known` (an edit to the first, maybe-incorrect),
/// or every known name when none is near.
[[noreturn]] void unknown_name(RuleId rule, std::string_view what, const std::string& word, Span span,
                               const std::vector<std::string_view>& known, DiagEngine& diags);
/// The value of keyword argument `arg` that names one of `known` (looked up by `find`), with the value's span;
/// `rule` when it is no name or an unknown one (did-you-mean).
template <class Find>
auto keyword_choice(RuleId rule, const Arg& arg, const std::vector<std::string_view>& known, Find find,
                    DiagEngine& diags) {
  const std::string* name = as_name(*arg.value);
  if (!name) {
    diags.report(rule, arg.value->span, "`" + arg.key.value + "` takes a name",
                 "write `" + arg.key.value + " = " + std::string(known.front()) + "`");
    throw LowerError{};
  }
  auto value = find(*name);
  if (!value) unknown_name(rule, "`" + arg.key.value + "` value", *name, arg.value->span, known, diags);
  return Spanned<std::decay_t<decltype(*value)>>{*value, arg.value->span};
}

/// Reports `message` about keyword argument `a`, whose name is not one of `known`: "did you mean" the nearest (an
/// edit of the name), then "write `usage`".
[[noreturn]] void unknown_keyword(RuleId rule, const Arg& a, std::string message,
                                  const std::vector<std::string_view>& known, std::string_view usage,
                                  DiagEngine& diags);

/// The `.with_*` calls of `k`, each on its own (one run reports every error): L010 for a name `table` lacks (`what`
/// names such calls in the message), L015 for one given twice; every other call is applied by its row. False when
/// one failed or did not parse (its diagnostics are reported).
template <class Config, class Apply>
bool lower_config_calls(const KernelAst& k, Config& cfg,
                        const std::vector<std::pair<std::string_view, Apply>>& table, std::string_view what,
                        DiagEngine& diags) {
  std::vector<std::pair<std::string, Span>> seen;
  bool ok = true;
  for (const Call& c : k.configs) {
    if (c.incomplete) {  // a syntax error is inside (reported)
      ok = false;
      continue;
    }
    ok = attempt([&] {
           auto it = std::find_if(table.begin(), table.end(),
                                  [&](const auto& row) { return row.first == c.name.value; });
           if (it == table.end()) {
             std::vector<std::string_view> known;
             for (const auto& row : table) known.push_back(row.first);
             unknown_name(RuleId::L010, what, c.name.value, c.name.span, known, diags);
           }
           for (const auto& [name, first] : seen) {
             if (name != c.name.value) continue;
             Diagnostic& d = diags.report(RuleId::L015, c.span, "`." + c.name.value + "` appears twice",
                                          "keep one; the kernel has one value for each setting");
             d.notes.push_back(Label{first, "first set here"});
             throw LowerError{};
           }
           seen.emplace_back(c.name.value, c.span);
           it->second(c, cfg, diags);
         }) &&
         ok;
  }
  return ok;
}

}  // namespace ucut::lowering
