// check/reduction_rules.cpp — where the epilogue's reductions (`row_sum`, `row_max`, `col_sum`, `col_max`) run: the
// visitor tree of a GEMM or batched GEMM on either backend (SM90: Sm90Col/RowReduction through the workspace; 2.x:
// VisitorCol/RowReduction with atomics), with f32 vectors and a tile scheduler that finishes every output tile in
// one CTA (C421, C412); on SM90 only the persistent kernels (`tma_cooperative`, `tma_pingpong`) give the epilogue
// the workspace the reductions combine their partials in. Convolutions reject them here (C421), grouped GEMMs with
// their other per-problem vectors (C419).
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {

void check_reductions(const KernelConfig& cfg, DiagEngine& diags) {
  for (const EpiOp* op : cfg.reductions()) {
    std::string_view name = epi_info(op->kind).name;
    if (cfg.conv()) {
      diags.report(RuleId::C421, op->span,
                   cfg.backend() == BackendKind::sm90
                       ? fmt::format("`{}` combines the CTAs' partials in the kernel's workspace; CUTLASS 4.2's one SM90 "
                                     "convolution kernel (non-persistent) gives its epilogue none",
                                     name)
                       : fmt::format("`{}`: the CUTLASS 2.x convolution epilogue is a thread-level functor that writes "
                                     "Y only",
                                     name),
                   "store the output and reduce it in a second kernel");
      continue;
    }
    if (cfg.backend() == BackendKind::sm90 && cfg.kernel_schedule.value != KernelSchedule::tma_cooperative &&
        cfg.kernel_schedule.value != KernelSchedule::tma_pingpong) {
      Diagnostic& d = diags.report(
          RuleId::C421, cfg.kernel_schedule.span,
          fmt::format("`{}` combines the CTAs' partials in the kernel's workspace; in CUTLASS 4.2 only the persistent "
                      "`tma_cooperative` and `tma_pingpong` kernels give their epilogue one, not `{}`",
                      name, kernel_schedule_name(cfg.kernel_schedule.value)),
          "use `with_scheduler(tma_cooperative)` (tile M a multiple of 128) or `with_scheduler(tma_pingpong)`");
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
