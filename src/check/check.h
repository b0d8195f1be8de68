// check/check.h — static validation of a KernelConfig against what the target backend can build and run
// correctly. Every failure is a rule of support/rules.def reported at the offending token. A config that
// passes must compile with nvcc (tests/compile and scripts/property_test.py measure this).
#pragma once

#include <optional>
#include <string>

#include "ir/kernel_config.h"
#include "ir/memop.h"
#include "ir/pipeline.h"
#include "support/diag.h"

namespace ucut {

void check(const KernelConfig& cfg, DiagEngine& diags);
/// A pipeline: its own rules (pipeline_rules.cpp: C501-C505) first, then every stage's.
void check(const PipelineConfig& p, DiagEngine& diags);
/// A kernel of a memory-bound family (memop_rules.cpp: C701, C713, and the shared stage rules).
void check(const MemOpConfig& m, DiagEngine& diags);

/// Why a `from(T)` conversion into operand `t` cannot run (T or t's type outside f32, f16 and bf16, the same type,
/// or a `scaled` operand): a message, a fix hint, and the span to report when it is not the `from` itself.
struct ConversionError {
  std::optional<Span> span;
  std::string message, hint;
};
std::optional<ConversionError> conversion_error(DType from, const TensorDecl& t);

namespace rules {
/// Every rule family in dependency order (check.cpp), without the fixes attached afterwards.
void check_all(const KernelConfig& cfg, DiagEngine& diags);
/// Gives every error at an explicit SM90 tile one machine-applicable edit: the nearest tile that passes every rule
/// (check_all on candidates), or marks such edits maybe-incorrect when no tile does (tile_fix.cpp).
void attach_tile_fix(const KernelConfig& cfg, std::vector<Diagnostic>& found);
// One function per rule family (each file names its rules; goldens are tests/golden/check/<ID>.ucut).
void check_arch(const KernelConfig& cfg, DiagEngine& diags);      // arch_rules.cpp: C101-C105, C209-C212
void check_tile(const KernelConfig& cfg, DiagEngine& diags);      // tile_rules.cpp: C201-C203, C206
void check_alignment(const KernelConfig& cfg, DiagEngine& diags); // align_rules.cpp: C204, C205, C214
void check_schedule(const KernelConfig& cfg, DiagEngine& diags);  // schedule_rules.cpp: C301-C309, W002
void check_epilogue(const KernelConfig& cfg, DiagEngine& diags);  // epilogue_rules.cpp: C305, C406-C410, C412, W001
/// One stage's own values, wherever its chain runs (epilogue_rules.cpp): a `cast` target (C412), clamp bounds
/// (C410).
void check_stage_values(const EpiOp& op, DiagEngine& diags);
void check_smem(const KernelConfig& cfg, DiagEngine& diags);      // smem_rules.cpp: C207, C208, W003
void check_swizzle(const KernelConfig& cfg, DiagEngine& diags);   // schedule_rules.cpp: C309
void check_conv(const KernelConfig& cfg, DiagEngine& diags);      // conv_rules.cpp: C106, C415-C418, C420, C422
void check_grouped(const KernelConfig& cfg, DiagEngine& diags);   // grouped_rules.cpp: C106, C415, C419, C420
void check_depthwise(const KernelConfig& cfg, DiagEngine& diags); // depthwise_rules.cpp: the direct convolution
void check_reductions(const KernelConfig& cfg, DiagEngine& diags); // reduction_rules.cpp: C412, C421
void check_conversions(const KernelConfig& cfg, DiagEngine& diags); // conversion_rules.cpp: C424, C426
void check_channel_fold(const KernelConfig& cfg, DiagEngine& diags); // conv_rules.cpp: C425
/// The CUTLASS 2.x backend's options, types, tiles, output layouts and stages (sm80_rules.cpp: C103, C105, C106,
/// C207-C209, C211-C213, C215).
void check_sm80(const KernelConfig& cfg, DiagEngine& diags);
/// A full `reduce` (memop_reduce_rules.cpp): C705.
void check_reduce(const MemOpConfig& m, DiagEngine& diags);
/// A `rownorm` (memop_rownorm_rules.cpp): C707.
void check_rownorm(const MemOpConfig& m, DiagEngine& diags);
/// A `sparse` (memop_sparse_rules.cpp): C717, C718, C719; whether its operands are A and one dense tensor of the
/// shapes C717 wants (then sparse_is_spmm and the vector rule may read them).
bool check_sparse(const MemOpConfig& m, DiagEngine& diags);
/// A `scan` (memop_scan_rules.cpp): C708.
void check_scan(const MemOpConfig& m, DiagEngine& diags);
/// A `window` (memop_window_rules.cpp): C710, C711, C712, C714.
void check_window(const MemOpConfig& m, DiagEngine& diags);
/// A library call, sort, topk, fft or attention (memop_library_rules.cpp): C720–C724.
void check_library(const MemOpConfig& m, DiagEngine& diags);
/// A family kernel's reversed inputs and a transposing map (memop_view_rules.cpp): C709.
void check_views(const MemOpConfig& m, DiagEngine& diags);
/// A rotary map (memop_rotary_rules.cpp): C725.
void check_rotary(const MemOpConfig& m, DiagEngine& diags);
/// Whether `e` reads one of the kernel's input tensors (operands [0, inputs)); `x` is the first
/// (memop_reduce_rules.cpp). reads_a_tensor: by name (`load`), not as `x`.
bool reads_an_input(const EpiExpr& e, size_t inputs);
bool reads_a_tensor(const EpiExpr& e, size_t inputs);
/// A family tensor's extents as written, "B,N" (memop_rules.cpp); whether two tensors' extents are the same.
std::string show_dims(const TensorDecl& t);
bool same_extents(const TensorDecl& a, const TensorDecl& b);
/// One extent as written (`N`, `64`); whether two extents are the same symbol or the same number.
std::string show_extent(const Extent& e);
bool same_extent(const Extent& a, const Extent& b);
}  // namespace rules

}  // namespace ucut
