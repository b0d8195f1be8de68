// check/conv_rules.cpp — what the convolution kernels (CUTLASS 3.x implicit GEMM on SM90) offer: the backend
// (C101), their one kernel schedule, epilogue and tile scheduler (C106), operands the kernel reads in place (C415)
// the epilogue outputs it cannot write (C416), and what filter gradients take: operand types (C417), no
// per-column vectors (C418).
#include <fmt/format.h>

#include "check/check.h"

namespace ucut::rules {

void check_conv(const KernelConfig& cfg, DiagEngine& diags) {
  if (cfg.backend() != BackendKind::sm90) {
    // On sm90a only `multistage` leaves the SM90 backend; on the 2.x archs there is no conv backend at all.
    bool multistage = arch_info(cfg.arch.value).backend == BackendKind::sm90;
    diags.report(multistage ? RuleId::C106 : RuleId::C101,
                 multistage ? cfg.kernel_schedule.span : cfg.arch.span,
                 multistage ? fmt::format("`multistage` runs the CUTLASS 2.x GEMM, which has no `{}` here",
                                          op_name(cfg.op.value))
                            : fmt::format("no backend emits `{}` for `{}` yet; convolutions are emitted as CUTLASS 3.x "
                                          "implicit GEMMs for `sm90a`",
                                          op_name(cfg.op.value), arch_info(cfg.arch.value).name),
                 multistage ? "use `with_scheduler(tma_cooperative)`, `tma_pingpong` or `tma_warpspecialized`"
                            : "target `sm90a` (H100, H200)");
    return;
  }
  // CUTLASS 4.2's SM90 implicit GEMM has one kernel: warp-specialized, not persistent (its dispatch policy
  // rejects the cooperative and pingpong schedules), with the TMA epilogue and no tile scheduler.
  KernelSchedule k = cfg.kernel_schedule.value;
  if (!(k == KernelSchedule::auto_ || k == KernelSchedule::tma_warpspecialized)) {
    Diagnostic& d = diags.report(
        RuleId::C106, cfg.kernel_schedule.span,
        fmt::format("CUTLASS 4.2's SM90 convolutions run one kernel, `tma_warpspecialized` (TMA im2col loads, one "
                    "consumer warpgroup, not persistent); `{}` has no convolution",
                    kernel_schedule_name(k)),
        "use `with_scheduler(tma_warpspecialized)` or leave the scheduler out");
    d.hint->edit = Edit{cfg.kernel_schedule.span, "with_scheduler(tma_warpspecialized)"};
    d.hint->applicability = Applicability::maybe_incorrect;
  }
  EpilogueSchedule e = cfg.epilogue_schedule.value;
  bool kernel_ok = k == KernelSchedule::auto_ || k == KernelSchedule::tma_warpspecialized;
  if (kernel_ok && e != EpilogueSchedule::auto_ && e != EpilogueSchedule::tma) {
    diags.report(RuleId::C106, cfg.epilogue_schedule.span,
                 "the convolution kernel stores Y through the single-warpgroup TMA epilogue (`tma`)",
                 "drop the epilogue schedule; it follows the kernel schedule");
  }
  if (cfg.tile_scheduler.value != TileScheduler::default_) {
    diags.report(RuleId::C106, cfg.tile_scheduler.span,
                 fmt::format("the convolution kernel launches one CTA per output tile; it has no `{}` tile scheduler",
                             tile_scheduler_name(cfg.tile_scheduler.value)),
                 "remove `with_tile_scheduler(...)`");
  }
  DType t = cfg.a.dtype.value;
  if (op_conv_kind(cfg.op.value) == ConvKind::wgrad && t != DType::f16 && t != DType::bf16) {
    // wgrad multiplies DY^T by im2col(X): both operands are MN-major, which wgmma reads for 16-bit types only.
    diags.report(RuleId::C417, cfg.a.dtype.span,
                 fmt::format("a filter gradient's operands are M- and N-major (channels contiguous, pixels the GEMM's K); "
                             "Hopper's wgmma reads such operands only as f16 or bf16, not `{}`",
                             dtype_name(t)),
                 "declare DY and X as `f16` or `bf16` (accumulating in f32)");
  }
  for (const EpiOp& op : cfg.epilogue) {
    if (op_conv_kind(cfg.op.value) != ConvKind::wgrad || epi_info(op.kind).category != EpiCategory::vector ||
        op.axis.value != Axis::col)
      continue;
    // The wgrad GEMM's N mode is the nested (c, s, r, t); Sm90RowBroadcast compares flat column coordinates.
    diags.report(RuleId::C418, op.span,
                 fmt::format("a filter gradient's columns are its (c, s, r, t) taps, a nested mode that CUTLASS 4.2's "
                             "`{}(col)` broadcast cannot index",
                             epi_info(op.kind).name),
                 "use a per-filter vector, `(row)` (one value per K), or apply the stage in a second kernel");
  }
  for (const EpiOp& op : cfg.epilogue) {
    if (op.kind != EpiKind::aux_store) continue;
    // Sm90AuxStore's TMA store needs a matrix stride; Y's hierarchical pixel stride does not fit it (CUTLASS 4.2).
    diags.report(RuleId::C416, op.span,
                 fmt::format("`aux_store` writes a second output through a matrix-strided TMA store, which CUTLASS "
                             "4.2 cannot build for `{}`'s channels-last output",
                             op_name(cfg.op.value)),
                 "store the intermediate as the kernel's output and apply the rest of the chain in a second kernel");
  }
  std::vector<const TensorDecl*> tensors = cfg.epilogue_tensors();
  tensors.insert(tensors.begin(), {&cfg.a, &cfg.b});
  for (const TensorDecl* tensor : tensors) {
    if (!tensor->padded.value) continue;
    diags.report(RuleId::C415, tensor->padded.span,
                 fmt::format("`pad` copies matrices with padded rows; `{}` is a convolution tensor, which the kernel "
                             "reads in place",
                             tensor->name.value),
                 "remove `pad`: channel counts that are multiples of 16 bytes' worth of elements load directly");
  }
}

}  // namespace ucut::rules
