// check/conv_rules.cpp — what the convolution kernels offer. Both backends: `pad` only on a dense forward
// convolution's X and W, together (C415), aux
// outputs only where a kernel writes a second tensor (C416), no per-column vectors on filter gradients (C418). SM90
// (CUTLASS 3.x implicit GEMM): its one kernel schedule, epilogue and tile scheduler (C106; the persistent GEMM schedules
// for a forward convolution run as a GEMM), 16-bit operands for
// filter gradients (C417). CUTLASS 2.x (sm75-sm89, `multistage` on sm90a; grouped convolutions everywhere): Turing's
// missing 3D dgrad (C101), options it lacks (C106), operand types and vector widths (C422), and the epilogue forms
// (C420): the thread-level functor act(alpha * acc + beta * C), and for forward convolutions also the broadcast
// epilogue T = alpha * acc + beta * C + bias[k], Y = act(T) with T as `aux_store`.
#include <fmt/format.h>

#include "check/check.h"
#include "ir/broadcast_chain.h"
#include "ir/linear_chain.h"
#include "ir/sm80_mma.h"

namespace ucut::rules {
namespace {

/// C415: a dense forward or transposed convolution may `pad` X and W, together: the kernel copies both with the
/// channel extent they share (a forward convolution's C, a transposed one's input channels, W's leading extent)
/// rounded up to 16 bytes (zeros in the new channels and filter rows, which add nothing). Every other convolution
/// tensor is read or written in place.
void check_channel_padding(const KernelConfig& cfg, DiagEngine& diags) {
  const ConvKind kind = op_conv_kind(cfg.op.value);
  bool paddable = (kind == ConvKind::fprop || kind == ConvKind::dgrad) &&
                  op_conv_grouping(cfg.op.value) == ConvGrouping::dense;
  for (const TensorDecl* tensor : cfg.epilogue_tensors()) {
    if (!tensor->padded.value) continue;
    diags.report(RuleId::C415, tensor->padded.span,
                 fmt::format("`pad` pads a convolution's input channels (X and W); `{}` is read or written in place",
                             tensor->name.value),
                 "remove `pad`: output channel counts must hold whole 16-byte vectors");
  }
  for (const TensorDecl* tensor : {&cfg.a, &cfg.b}) {
    if (!tensor->padded.value) continue;
    if (!paddable) {
      diags.report(RuleId::C415, tensor->padded.span,
                   fmt::format("`pad` pads the input channels of dense forward and transposed convolutions; `{}` "
                               "reads `{}` in place",
                               op_name(cfg.op.value), tensor->name.value),
                   "remove `pad`: channel counts that are multiples of 16 bytes' worth of elements load directly");
      continue;
    }
    const TensorDecl& other = tensor == &cfg.a ? cfg.b : cfg.a;
    if (other.padded.value) continue;
    diags.report(RuleId::C415, tensor->padded.span,
                 fmt::format("`{}` and `{}` share their input channels: `pad` on `{}` alone would give them different "
                             "channel counts",
                             cfg.a.name.value, cfg.b.name.value, tensor->name.value),
                 fmt::format("add `pad` to `{}` too", other.name.value));
  }
}

void check_sm90_conv(const KernelConfig& cfg, DiagEngine& diags) {
  if (op_conv_grouping(cfg.op.value) != ConvGrouping::dense) {
    Diagnostic& d = diags.report(
        RuleId::C106, cfg.kernel_schedule.span,
        fmt::format("`{}` runs as a CUTLASS 2.x kernel (CUTLASS 4.2 has no grouped SM90 convolution); `{}` is an SM90 "
                    "schedule",
                    op_name(cfg.op.value), kernel_schedule_name(cfg.kernel_schedule.value)),
        "use `with_scheduler(multistage)` or drop `with_scheduler`");
    if (!cfg.kernel_schedule.span.implied) {
      d.hint->edit = Edit{cfg.kernel_schedule.span, "multistage"};  // the span is the schedule's name
      d.hint->applicability = Applicability::machine_applicable;
    }
    return;
  }
  // CUTLASS 4.2's SM90 implicit GEMM has one kernel: warp-specialized, not persistent (its dispatch policy
  // rejects the cooperative and pingpong schedules), with the TMA epilogue and no tile scheduler. A forward
  // convolution may instead run on the persistent GEMM kernels when its geometry is pointwise (KernelConfig::
  // conv_as_gemm; the kernel refuses other geometries at run time): those follow the GEMM rules (check_schedule).
  KernelSchedule k = cfg.kernel_schedule.value;
  if (cfg.conv_as_gemm()) {
    TileScheduler ts = cfg.tile_scheduler.value;
    if (ts == TileScheduler::stream_k || ts == TileScheduler::split_k)
      diags.report(RuleId::C106, cfg.tile_scheduler.span,
                   fmt::format("a convolution run as a GEMM has K = its (folded) input channels, too few to split; "
                               "`{}` is not offered",
                               tile_scheduler_name(ts)),
                   "use `with_tile_scheduler(persistent)` or leave it out");
  } else {
    if (!(k == KernelSchedule::auto_ || k == KernelSchedule::tma_warpspecialized)) {
      bool gemm_schedule = k == KernelSchedule::tma_cooperative || k == KernelSchedule::tma_pingpong;
      Diagnostic& d = diags.report(
          RuleId::C106, cfg.kernel_schedule.span,
          gemm_schedule
              ? fmt::format("`{}` runs a convolution as a GEMM, which only a dense forward convolution is; `{}` runs "
                            "on CUTLASS 4.2's one SM90 implicit-GEMM kernel, `tma_warpspecialized`",
                            kernel_schedule_name(k), op_name(cfg.op.value))
              : fmt::format("CUTLASS 4.2's SM90 convolutions run one kernel, `tma_warpspecialized` (TMA im2col loads, "
                            "one consumer warpgroup, not persistent); `{}` has no convolution",
                            kernel_schedule_name(k)),
          "use `with_scheduler(tma_warpspecialized)` or leave the scheduler out");
      d.hint->edit = Edit{cfg.kernel_schedule.span, "tma_warpspecialized"};
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
                   "remove `with_tile_scheduler(...)`, or run a pointwise forward convolution as a GEMM "
                   "(`with_scheduler(tma_cooperative)`)");
    }
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
}

/// C416: why this convolution kernel has no second output.
std::string aux_store_refusal(const KernelConfig& cfg) {
  // Sm90AuxStore's TMA store needs a matrix stride; Y's hierarchical pixel stride does not fit it (CUTLASS 4.2).
  if (cfg.backend() == BackendKind::sm90)
    return fmt::format("`aux_store` writes a second output through a matrix-strided TMA store, which CUTLASS 4.2 "
                       "cannot build for `{}`'s channels-last output",
                       op_name(cfg.op.value));
  if (op_conv_grouping(cfg.op.value) == ConvGrouping::grouped)
    return "CUTLASS 4.2's grouped convolution (DefaultConv2dGroupFprop) has no broadcast-epilogue variant: it writes "
           "one output, Y; `aux_store` would be a second";
  if (op_conv_kind(cfg.op.value) == ConvKind::wgrad)
    return "CUTLASS 4.2 has no 2.x filter-gradient kernel with a broadcast epilogue: it writes one output, DW; "
           "`aux_store` would be a second";
  // dgrad: DefaultDeconv2d/3dWithBroadcast exist, but only for OpClassSimt, and read the filter as [K, R, S, C].
  return "CUTLASS 4.2's 2.x transposed convolution (dgrad) writes one output, Y; its broadcast-epilogue deconv "
         "kernels exist for SIMT only and read the filter as [K,R,S,C], not as `W[C,R,S,K]`";
}

/// Rules both backends share: tensors read in place, one output, no vectors over a filter gradient's taps.
void check_conv_tensors(const KernelConfig& cfg, DiagEngine& diags) {
  bool sm90 = cfg.backend() == BackendKind::sm90;
  for (const EpiOp& op : cfg.epilogue) {
    if (op_conv_kind(cfg.op.value) != ConvKind::wgrad || epi_info(op.kind).category != EpiCategory::vector ||
        op.axis.value != Axis::col)
      continue;
    // SM90: the wgrad GEMM's N mode is the nested (c, s, r, t), which Sm90RowBroadcast cannot index; 2.x: C is
    // broadcast over pixels, and a filter gradient's rows are filters, not pixels.
    diags.report(RuleId::C418, op.span,
                 fmt::format("a filter gradient's columns are its (c, s, r, t) taps, a nested mode that {} cannot "
                             "broadcast `{}(col)` over",
                             sm90 ? "CUTLASS 4.2's SM90 epilogue" : "the 2.x convolution epilogue",
                             epi_info(op.kind).name),
                 sm90 ? "use a per-filter vector, `(row)` (one value per K), or apply the stage in a second kernel"
                      : "apply the stage in a second kernel");
  }
  for (const EpiOp& op : cfg.epilogue) {
    // The 2.x forward convolutions write it through their broadcast epilogue (C420 checks where it sits).
    if (op.kind != EpiKind::aux_store || (!sm90 && has_broadcast_conv_kernel(cfg.op.value))) continue;
    diags.report(RuleId::C416, op.span, aux_store_refusal(cfg),
                 sm90 && has_broadcast_conv_kernel(cfg.op.value)
                     ? "run it on the 2.x kernel (`with_scheduler(multistage)`), whose broadcast epilogue stores the "
                       "value before the activation; or store the intermediate as the kernel's output and apply the "
                       "rest of the chain in a second kernel"
                     : "store the intermediate as the kernel's output and apply the rest of the chain in a second "
                       "kernel");
  }
  check_channel_padding(cfg, diags);
}

/// C420 for the kernels with the plain functor act(alpha * acc + beta * C) (transposed, filter-gradient and grouped
/// convolutions): `op` is the first stage outside that form.
void check_linear_form(const KernelConfig& cfg, const EpiOp& op, DiagEngine& diags) {
  EpiCategory c = epi_info(op.kind).category;
  if (c == EpiCategory::aux || c == EpiCategory::reduce ||
      (op_conv_kind(cfg.op.value) == ConvKind::wgrad && c == EpiCategory::vector && op.axis.value == Axis::col))
    return;  // C416, C421 and C418 say why
  const TensorDecl& d = cfg.output();
  bool typed = (c == EpiCategory::source && op.tensor && op.tensor->dtype.value != d.dtype.value) ||
               (op.kind == EpiKind::bias && op.dtype.value != d.dtype.value);
  diags.report(RuleId::C420, op.span,
               typed ? fmt::format("the 2.x convolution epilogue reads C (a residual or bias) as the output's type "
                                   "`{}`",
                                   dtype_name(d.dtype.value))
                     : fmt::format("the 2.x convolution epilogue computes act(alpha * acc + beta * C), C a residual{}: "
                                   "at most one `scale`, then one of those, then one activation; `{}` does not fit "
                                   "there",
                                   op_conv_kind(cfg.op.value) == ConvKind::wgrad ? "" : " or a `bias(col)`",
                                   epi_info(op.kind).name),
               typed ? fmt::format("declare it `{}`", dtype_name(d.dtype.value))
                     : "reorder the chain into scale >> residual/bias >> activation, or use a dense convolution on "
                       "`sm90a` with a TMA schedule (its visitor tree takes any elementwise chain)");
}

/// C420 for the forward convolutions, whose chains may also run on CUTLASS's broadcast epilogue
/// (ir/broadcast_chain.h): T = alpha * acc + beta * C + bias[k], Y = act(T), T optionally stored by `aux_store`.
/// `op` is the first stage outside that form.
void check_broadcast_form(const KernelConfig& cfg, const EpiOp& op, DiagEngine& diags) {
  EpiCategory c = epi_info(op.kind).category;
  if (c == EpiCategory::reduce) return;  // C421 says why
  const TensorDecl& d = cfg.output();
  if (c == EpiCategory::source && op.tensor && op.tensor->dtype.value != d.dtype.value) {
    diags.report(RuleId::C420, op.span,
                 fmt::format("the 2.x convolution epilogue reads the residual C as the output's type `{}`",
                             dtype_name(d.dtype.value)),
                 fmt::format("declare it `{}`", dtype_name(d.dtype.value)));
    return;
  }
  if (c == EpiCategory::aux) {
    diags.report(RuleId::C420, op.span,
                 "CUTLASS's broadcast epilogue stores one aux tensor, T = alpha * acc + beta * C + bias[k], the value "
                 "before the activation; `aux_store` here would capture another value",
                 "place one `aux_store` after the scale, residual and bias and before the activation");
    return;
  }
  diags.report(RuleId::C420, op.span,
               fmt::format("the 2.x forward-convolution epilogue computes T = alpha * acc + beta * C + bias[k] and "
                           "Y = act(T) (CUTLASS's broadcast epilogue): at most one `scale`, then a residual and/or a "
                           "`bias(col)`, then `aux_store` of T, then one activation; `{}` does not fit there",
                           epi_info(op.kind).name),
               "reorder the chain into scale >> residual >> bias(col) >> aux_store >> activation, or, without "
               "`aux_store`, use a dense convolution on `sm90a` with a TMA schedule (its visitor tree takes any "
               "elementwise chain)");
}

/// CUTLASS 2.x implicit-GEMM convolutions (emit/sm80/conv.cpp). The generic 2.x rules (sm80_rules.cpp: tiles,
/// stages, accumulators) run after these.
void check_2x_conv(const KernelConfig& cfg, DiagEngine& diags) {
  if (cfg.tile_scheduler.value == TileScheduler::stream_k)
    diags.report(RuleId::C106, cfg.tile_scheduler.span,
                 "the 2.x implicit-GEMM convolution launches one CTA per output tile; it has no `stream_k` tile "
                 "scheduler",
                 "remove `with_tile_scheduler(...)`");
  if (sm80_pipelined(cfg) && op_spatial_dims(cfg.op.value) == 3 && op_conv_kind(cfg.op.value) == ConvKind::dgrad) {
    diags.report(RuleId::C101, cfg.arch.span,
                 "CUTLASS 4.2 has no two-stage (Turing) 3D dgrad kernel, so no backend emits `conv_transpose3d` for "
                 "`sm75`",
                 "target `sm80` or newer");
    return;
  }
  DType t = cfg.a.dtype.value;
  if (t != DType::f16 && t != DType::bf16 && t != DType::f32) {
    diags.report(RuleId::C422, cfg.a.dtype.span,
                 fmt::format("CUTLASS's 2.x convolutions multiply f16, bf16 or f32 (TF32, 3xTF32 or SIMT) channels-last "
                             "operands, not `{}`",
                             dtype_name(t)),
                 "declare the operands `f16`, `bf16` or `f32`, or target `sm90a` with a TMA schedule");
    return;
  }
  bool tensor_op = !(t == DType::f32 && cfg.math.value == MathMode::native);
  if (!tensor_op && op_conv_grouping(cfg.op.value) == ConvGrouping::grouped) {
    diags.report(RuleId::C422, cfg.math.span.implied ? cfg.a.dtype.span : cfg.math.span,
                 "CUTLASS 4.2's grouped convolution (DefaultConv2dGroupFprop) is instantiated for tensor cores only; "
                 "exact f32 (SIMT) math has no grouped kernel",
                 "use `math = tf32` or `math = tf32x3` (f32 operands on tensor cores), or f16/bf16 operands");
    return;
  }
  if (op_spatial_dims(cfg.op.value) == 3 && tensor_op) {
    int need = 128 / dtype_bits(t);
    for (const TensorDecl* x : {&cfg.a, &cfg.b}) {
      if (x->kernel_align() == need) continue;
      diags.report(RuleId::C422, x->align.span.implied ? x->span : x->align.span,
                   fmt::format("CUTLASS's 2.x 3D convolutions load `{}` in 16-byte vectors ({} elements); `align({})` "
                               "cannot be honoured",
                               x->name.value, need, x->kernel_align()),
                   fmt::format("declare `align({})` (channel counts a multiple of {}) or use the SM90 kernel", need,
                               need));
    }
  }
  LinearChain chain = linear_chain(cfg, /*allow_bias=*/op_conv_kind(cfg.op.value) != ConvKind::wgrad);
  if (!chain.unsupported) return;
  if (!has_broadcast_conv_kernel(cfg.op.value)) {
    check_linear_form(cfg, *chain.unsupported, diags);
    return;
  }
  BroadcastChain broadcast = broadcast_chain(cfg);
  if (broadcast.unsupported) check_broadcast_form(cfg, *broadcast.unsupported, diags);
}

}  // namespace

/// C425: `fold(n)` rewrites the copy that `pad` makes of a dense forward convolution's X (W's follows), unrolling
/// n of its spatial filter dimensions.
void check_channel_fold(const KernelConfig& cfg, DiagEngine& diags) {
  std::vector<const TensorDecl*> tensors = cfg.epilogue_tensors();
  tensors.insert(tensors.begin(), {&cfg.a, &cfg.b});
  bool dense_fprop = cfg.conv() && op_conv_kind(cfg.op.value) == ConvKind::fprop &&
                     op_conv_grouping(cfg.op.value) == ConvGrouping::dense;
  for (const TensorDecl* t : tensors) {
    if (!t->fold.value) continue;
    if (t != &cfg.a || !dense_fprop) {
      diags.report(RuleId::C425, t->fold.span,
                   fmt::format("`fold` unrolls filter taps into the channels of a dense forward convolution's "
                               "activation; `{}` is not one",
                               t->name.value),
                   "remove `fold(...)`");
      continue;
    }
    int rank = op_spatial_dims(cfg.op.value);
    if (t->fold.value > rank) {
      diags.report(RuleId::C425, t->fold.span,
                   fmt::format("`{}` has {} spatial filter dimension{}; `fold({})` unrolls more", op_name(cfg.op.value),
                               rank, rank == 1 ? "" : "s", t->fold.value),
                   fmt::format("write `fold({})` or less", rank));
      continue;
    }
    if (!cfg.a.padded.value || !cfg.b.padded.value)
      diags.report(RuleId::C425, t->fold.span,
                   fmt::format("`fold` rewrites the copies that `pad` makes of `{}` and `{}`", cfg.a.name.value,
                               cfg.b.name.value),
                   fmt::format("add `pad` to `{}` and `{}`", cfg.a.name.value, cfg.b.name.value));
  }
}

void check_conv(const KernelConfig& cfg, DiagEngine& diags) {
  check_conv_tensors(cfg, diags);
  if (cfg.backend() == BackendKind::sm90)
    check_sm90_conv(cfg, diags);
  else
    check_2x_conv(cfg, diags);
}

}  // namespace ucut::rules
