// ir/lower_memop_sparse.h — the `sparse` family's part of lower_memop.cpp (lower_memop_sparse.cpp): the
// format call on the matrix's declaration, and what a `sparse` operator needs of its operands.
#pragma once

#include "dsl/ast.h"
#include "ir/memop.h"
#include "support/diag.h"

namespace ucut {

/// In a `sparse` kernel, the format call on the declaration `decl` of input `input` (`A: f32[R, C]
/// csr(values, col_indices, row_offsets)`): recorded in m.sparse and removed from `decl` (a copy), whose
/// other modifiers lower_tensor reads. A modifier call of two arguments or more, or named as a format, is
/// taken for one (C715 for an unknown name, a second format, or arguments the format does not take; C716 for
/// `index` other than i32). Does nothing in the other families.
void take_sparse_format(Arg& decl, size_t input, MemOpConfig& m, DiagEngine& diags);

/// After the operands of a `sparse`: one of them carries a format (C715).
void require_sparse_format(const Call& op, const MemOpConfig& m, DiagEngine& diags);

}  // namespace ucut
