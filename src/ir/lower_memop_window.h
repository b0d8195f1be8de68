// ir/lower_memop_window.h — the `window` family's lowering (lower_memop_window.cpp), called from
// lower_memop.cpp.
#pragma once

#include "dsl/ast.h"
#include "ir/memop.h"
#include "support/diag.h"

namespace ucut::lowering {

/// What `window(...)` takes, for hints.
inline constexpr const char* kWindowUsage =
    "window(input: f32[N], kernel: f32[K], op = sum, weights = kernel, edge = valid)";
/// Whether `arg` is one of a window's own arguments: `op`, `edge`, `taps`, `weights`, `size`, `stride`,
/// `pad`, `over` (keywords) or `acc: f32`.
bool window_argument(const Arg& arg);
/// A `window`'s own arguments into m.window; the operands are lowered already (`weights` names one). C710 for
/// an unknown or missing value.
void lower_window(const Call& op, MemOpConfig& m, DiagEngine& diags);

}  // namespace ucut::lowering
