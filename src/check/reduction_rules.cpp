// check/reduction_rules.cpp — where the epilogue's reductions (`row_sum`, `row_max`, `col_sum`, `col_max`) run: the
// visitor tree of a GEMM or batched GEMM on either backend (SM90: Sm90Col/RowReduction through the workspace; 2.x:
// VisitorCol/RowReduction with atomics), with f32 vectors and a tile scheduler that finishes every output tile in
// one CTA (C421, C412). On SM90 the partials meet in an epilogue workspace: CUTLASS's persistent kernels
// (`tma_cooperative`, `tma_pingpong`) size it, and for the non-persistent `tma_warpspecialized` one (the
// convolutions' kernel too) the host API adds it (emit/abi_wrapper.h). Convolutions reduce per output channel only:
// on SM90 forward and transposed ones; on the 2.x backend a `col_sum` of a forward 1D/2D convolution's linear chain,
// through CUTLASS's reduction epilogue (ir/conv_reduction.h). Grouped GEMMs reject reductions with their other
// per-problem vectors (C419).
#include <fmt/format.h>

#include "check/check.h"
#include "ir/conv_reduction.h"

namespace ucut::rules {
namespace {

/// A convolution's reductions: on SM90 one value per output channel (the implicit GEMM's plain N mode) for forward
/// and transposed convolutions. One value per output pixel would stride the vector along the hierarchical
/// (q, p, z, n) mode, which CUTLASS 4.2's reduction does not compile; a filter gradient's columns are the nested
/// (c, s, r, t) taps. On the 2.x backend what ir/conv_reduction.h admits.
bool conv_reduction_builds(const KernelConfig& cfg, const EpiOp& op) {
  if (cfg.backend() != BackendKind::sm90) return conv2x_reduction_fit(cfg, op) == Conv2xReduction::fits;
  return op_conv_kind(cfg.op.value) != ConvKind::wgrad && op.axis.value == Axis::col;
}

struct Refusal {
  std::string message, hint;
};

/// Why CUTLASS 4.2's 2.x reduction epilogue (DefaultConv2dFpropWithReduction) cannot run `op`.
Refusal conv2x_reduction_refusal(const KernelConfig& cfg, const EpiOp& op, std::string_view name) {
  const std::string second = "store the output and reduce it in a second kernel";
  switch (conv2x_reduction_fit(cfg, op)) {
    case Conv2xReduction::per_pixel:
      return {fmt::format("`{}` gives one value per output pixel; the 2.x reduction epilogue sums each output "
                          "channel over the pixels (`col_sum`) only",
                          name),
              "use `col_sum(S: f32[K])`, or " + second};
    case Conv2xReduction::max:
      return {"`col_max`: the 2.x reduction epilogue starts every partial result from 0 and counts the rows past "
              "the output's end as 0 (EpilogueWithReduction has no bounds check on them), so a channel whose values "
              "are all negative would report 0; it sums correctly (`col_sum`)",
              "use `col_sum`, or run the convolution on sm90a (its `col_max` builds), or " + second};
    case Conv2xReduction::no_kernel:
      return {fmt::format("`{}`: CUTLASS 4.2 has a 2.x reduction epilogue for forward 1D/2D convolutions only "
                          "(DefaultConv2dFpropWithReduction); no 3D, transposed, filter-gradient or grouped kernel "
                          "has one",
                          name),
              second};
    case Conv2xReduction::simt:
      return {fmt::format("`{}`: CUTLASS 4.2's 2.x reduction epilogue (DefaultConvEpilogueWithReductionTensorOp) is "
                          "built for tensor cores only; exact f32 (SIMT) math has none",
                          name),
              "use `math = tf32` or `math = tf32x3`, or " + second};
    case Conv2xReduction::accumulator:
      return {fmt::format("`{}`: the 2.x reduction epilogue keeps its partial sums in the accumulator type; `acc: {}` "
                          "would sum in {}",
                          name, dtype_name(cfg.acc.value), dtype_name(cfg.acc.value)),
              "declare `acc: f32`"};
    case Conv2xReduction::several:
      return {fmt::format("`{}`: the 2.x reduction epilogue writes one vector; this chain has {}", name,
                          cfg.reductions().size()),
              "keep one `col_sum`, or " + second};
    case Conv2xReduction::form:
      return {fmt::format("`{}`: the 2.x reduction epilogue's functor (LinearCombinationWithElementwise) computes "
                          "Y = alpha * acc + beta * C, C a residual or a `bias(col)` read as Y's type, with no "
                          "activation or aux output, and sums what it stores: the chain must be [scale] >> [residual "
                          "or bias(col)] >> `{}` >> store",
                          name, name),
              "move the reduction right before `store` and drop the stages the functor does not have, or " + second};
    case Conv2xReduction::fits: break;
  }
  return {};
}

Refusal conv_reduction_refusal(const KernelConfig& cfg, const EpiOp& op, std::string_view name) {
  if (cfg.backend() != BackendKind::sm90) return conv2x_reduction_refusal(cfg, op, name);
  const std::string second = "store the output and reduce it in a second kernel";
  if (op_conv_kind(cfg.op.value) == ConvKind::wgrad)
    return {fmt::format("`{}`: a filter gradient's rows are filters and its columns the nested (c, s, r, t) taps, "
                        "which CUTLASS 4.2's SM90 reductions cannot index",
                        name),
            second};
  return {fmt::format("`{}` gives one value per output pixel: it reduces along the implicit GEMM's hierarchical pixel "
                      "mode (q, p, z, n), which CUTLASS 4.2's SM90 reduction cannot stride; per output channel "
                      "(`col_sum`, `col_max`) it builds",
                      name),
          second};
}

}  // namespace

void check_reductions(const KernelConfig& cfg, DiagEngine& diags) {
  for (const EpiOp* op : cfg.reductions()) {
    std::string_view name = epi_info(op->kind).name;
    if (cfg.conv() && !conv_reduction_builds(cfg, *op)) {
      Refusal r = conv_reduction_refusal(cfg, *op, name);
      diags.report(RuleId::C421, op->span, r.message, r.hint);
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
