// problem/semantics.h — a kernel problem's declaration lowered to its reference semantics. The operator call (its
// operands with the operator's own extents), the math mode and the chain ending in `store(D)` are built as the
// syntax tree a spec with these operands would have (dsl/ast_build.h) and lowered with no tuning (ir/lower.h), so
// problems and specs share one vocabulary and one lowering, and a mistake is the DSL's own diagnostic (L003 an
// unknown type, L012 an unknown stage, ...) at the declaration's span in the problem's file.
#pragma once

#include <optional>
#include <string>

#include "ir/kernel_config.h"
#include "problem/problem.h"
#include "support/diag.h"

namespace ucut {

/// Where the declaration sits in `src`: the problem's name, its operator and math mode as written, and the span
/// that defaults point at (the `op` key, or the file's start).
struct DeclarationSite {
  std::string name;
  Spanned<OpKind> op;
  Spanned<std::string> math;
  Span header;
};

/// The reference semantics of `syntax` for the operator at `site`; nullopt after lowering reported why.
std::optional<KernelConfig> lower_semantics(const SourceFile& src, const DeclarationSite& site,
                                            const ProblemSyntax& syntax, DiagEngine& diags);

}  // namespace ucut
