// ir/lower.h — AST → KernelConfig. Resolves names against the tables (types.h, epilogue_ops.h), checks the
// structure (arity, value kinds, shapes), fills defaults with implied spans. Constraints that depend on the
// target (tile limits, schedule pairs, alignment) are check/'s job, not this one's.
#pragma once

#include <optional>

#include "dsl/ast.h"
#include "ir/kernel_config.h"
#include "support/diag.h"

namespace ucut {

std::optional<KernelConfig> lower(const SourceFile& src, const KernelAst& kernel, DiagEngine& diags);

}  // namespace ucut
