// check/reduction_rules.cpp — where the epilogue's reductions (`row_sum`, `row_max`, `col_sum`, `col_max`) run: the
// visitor tree of a GEMM or batched GEMM on either backend (SM90: Sm90Col/RowReduction through the workspace; 2.x:
// VisitorCol/RowReduction with atomics), with f32 vectors and a tile scheduler that finishes every output tile in
// one CTA (C421, C412). On SM90 the partials meet in an epilogue workspace: CUTLASS's persistent kernels
// (`tma_cooperative`, `tma_pingpong`) size it, and for the non-persistent `tma_warpspecialized` one (the
// convolutions' kernel too) the host API adds it (emit/abi_wrapper.h). Convolutions reduce per output channel only;
// grouped GEMMs reject reductions with their other per-problem vectors (C419).
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {
namespace {

/// A convolution's reductions: on SM90 one value per output channel (the implicit GEMM's plain N mode) for forward
/// and transposed convolutions. One value per output pixel would stride the vector along the hierarchical
/// (q, p, z, n) mode, which CUTLASS 4.2's reduction does not compile; a filter gradient's columns are the nested
/// (c, s, r, t) taps; the 2.x convolution epilogue is a thread-level functor.
bool conv_reduction_builds(const KernelConfig& cfg, const EpiOp& op) {
  return cfg.backend() == BackendKind::sm90 && op_conv_kind(cfg.op.value) != ConvKind::wgrad &&
         op.axis.value == Axis::col;
}

std::string conv_reduction_refusal(const KernelConfig& cfg, std::string_view name) {
  if (cfg.backend() != BackendKind::sm90)
    return fmt::format("`{}`: the CUTLASS 2.x convolution epilogue is a thread-level functor that writes Y only; "
                       "reductions run on sm90a's convolutions (one value per output channel)",
                       name);
  if (op_conv_kind(cfg.op.value) == ConvKind::wgrad)
    return fmt::format("`{}`: a filter gradient's rows are filters and its columns the nested (c, s, r, t) taps, "
                       "which CUTLASS 4.2's SM90 reductions cannot index",
                       name);
  return fmt::format("`{}` gives one value per output pixel: it reduces along the implicit GEMM's hierarchical pixel "
                     "mode (q, p, z, n), which CUTLASS 4.2's SM90 reduction cannot stride; per output channel "
                     "(`col_sum`, `col_max`) it builds",
                     name);
}

}  // namespace

void check_reductions(const KernelConfig& cfg, DiagEngine& diags) {
  for (const EpiOp* op : cfg.reductions()) {
    std::string_view name = epi_info(op->kind).name;
    if (cfg.conv() && !conv_reduction_builds(cfg, *op)) {
      diags.report(RuleId::C421, op->span, conv_reduction_refusal(cfg, name),
                   "store the output and reduce it in a second kernel");
      continue;
    }
    if (!cfg.conv() && cfg.backend() == BackendKind::sm90 &&
        cfg.kernel_schedule.value != KernelSchedule::tma_cooperative &&
        cfg.kernel_schedule.value != KernelSchedule::tma_pingpong &&
        cfg.kernel_schedule.value != KernelSchedule::tma_warpspecialized) {
      Diagnostic& d = diags.report(
          RuleId::C421, cfg.kernel_schedule.span,
          fmt::format("`{}` combines the CTAs' partials in an epilogue workspace: CUTLASS's persistent kernels "
                      "(`tma_cooperative`, `tma_pingpong`) size one, and the host API adds one to the non-persistent "
                      "`tma_warpspecialized`; the `{}` kernel has none",
                      name, kernel_schedule_name(cfg.kernel_schedule.value)),
          "use the default schedule, `tma_cooperative`, `tma_pingpong` or `tma_warpspecialized`");
      d.notes.push_back(Label{op->span, "the reduction"});
      continue;
    }
    if (cfg.tile_scheduler.value == TileScheduler::stream_k || cfg.tile_scheduler.value == TileScheduler::split_k) {
      Diagnostic& d = diags.report(
          RuleId::C421, cfg.tile_scheduler.span,
          fmt::format("`{}` combines whole output tiles across CTAs; the `{}` tile scheduler finishes tiles in pieces",
                      name, tile_scheduler_name(cfg.tile_scheduler.value)),
          cfg.backend() == BackendKind::sm90 ? "use the default or `persistent` tile scheduler"
                                             : "drop `with_tile_scheduler`: the default finishes every tile in one CTA");
      d.notes.push_back(Label{op->span, "the reduction"});
    }
    if (op->tensor->dtype.value != DType::f32) {
      diags.report(RuleId::C412, op->tensor->dtype.span,
                   fmt::format("`{}` accumulates across CTAs in f32 and writes f32; `{}` is `{}`", name,
                               op->tensor->name.value, dtype_name(op->tensor->dtype.value)),
                   fmt::format("declare `{}: f32[...]`", op->tensor->name.value));
    }
  }
}

}  // namespace ucut::rules
