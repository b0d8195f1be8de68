// ir/lower.h — AST → KernelConfig (a GEMM or convolution) or MemOpConfig (a memory-bound family). Resolves
// names against the tables (types.h, epilogue_ops.h), checks the structure (arity, value kinds, shapes),
// fills defaults with implied spans. Constraints that depend on the target (tile limits, schedule pairs,
// alignment) are check/'s job, not this one's.
#pragma once

#include <optional>

#include "dsl/ast.h"
#include "ir/kernel_config.h"
#include "ir/memop.h"
#include "support/diag.h"

namespace ucut {

/// A kernel whose operator is a GEMM or a convolution (ops.def).
std::optional<KernelConfig> lower(const SourceFile& src, const KernelAst& kernel, DiagEngine& diags);
/// A kernel whose operator is of a memory-bound family (lower_memop.cpp).
std::optional<MemOpConfig> lower_memop(const SourceFile& src, const KernelAst& kernel, DiagEngine& diags);

}  // namespace ucut
