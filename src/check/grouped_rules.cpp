// check/grouped_rules.cpp — what CUTLASS 4.2's grouped GEMMs offer: the SM90 pointer-array kernel's two schedules and
// its own tile scheduler (C106), operands read in place (C415), an epilogue that reaches per-problem tensors only
// through C and D (C419), and the 2.x grouped kernel's epilogue form act(alpha * acc + beta * C) (C420).
#include <fmt/format.h>

#include "check/check.h"
#include "ir/linear_chain.h"

namespace ucut::rules {

void check_grouped(const KernelConfig& cfg, DiagEngine& diags) {
  KernelSchedule k = cfg.kernel_schedule.value;
  if (cfg.backend() == BackendKind::sm90 && k != KernelSchedule::tma_cooperative && k != KernelSchedule::tma_pingpong) {
    Diagnostic& d = diags.report(
        RuleId::C106, cfg.kernel_schedule.span,
        fmt::format("grouped GEMMs run CUTLASS's pointer-array kernels, which exist as `tma_cooperative` and "
                    "`tma_pingpong` only; `{}` has none",
                    kernel_schedule_name(k)),
        "use `with_scheduler(tma_cooperative)` (tile M a multiple of 128) or `with_scheduler(tma_pingpong)`");
    if (!cfg.kernel_schedule.span.implied) {
      d.hint->edit = Edit{cfg.kernel_schedule.span, "tma_cooperative"};  // the span is the schedule's name
      d.hint->applicability = Applicability::maybe_incorrect;
    }
  }
  if (cfg.tile_scheduler.value != TileScheduler::default_) {
    diags.report(RuleId::C106, cfg.tile_scheduler.span,
                 fmt::format("a grouped GEMM walks its problems' tiles with its own persistent group scheduler; it "
                             "has no `{}` tile scheduler",
                             tile_scheduler_name(cfg.tile_scheduler.value)),
                 "remove `with_tile_scheduler(...)`");
  }
  for (const TensorDecl* t : {&cfg.a, &cfg.b, &cfg.output()}) {
    if (!t->padded.value) continue;
    diags.report(RuleId::C415, t->padded.span,
                 fmt::format("`pad` stages one matrix per operand; a grouped GEMM reads `{}` in place, one matrix per "
                             "problem",
                             t->name.value),
                 "remove `pad` and keep each problem's leading dimension a multiple of 16 bytes");
  }
  for (const TensorDecl* t : {&cfg.a, &cfg.b, &cfg.output()}) {
    if (!t->scaled.value) continue;
    diags.report(RuleId::C419, t->scaled.span,
                 fmt::format("`scaled` reads one scale for `{}`; a grouped GEMM's problems would need one each", t->name.value),
                 "remove `scaled` (FP8 operands then multiply unscaled) or run the problems as separate GEMMs");
  }
  for (const EpiOp& op : cfg.epilogue) {
    EpiCategory c = epi_info(op.kind).category;
    if (c != EpiCategory::vector && c != EpiCategory::aux && c != EpiCategory::reduce) continue;
    diags.report(RuleId::C419, op.span,
                 fmt::format("`{}` would need one {} per problem; a grouped GEMM's epilogue reaches per-problem tensors "
                             "only through the residual C and the stored D",
                             epi_info(op.kind).name,
                             c == EpiCategory::aux ? "output tensor" : c == EpiCategory::reduce ? "output vector" : "vector"),
                 "keep the chain elementwise (scales, residual, activations, `expr`) or split the problems into "
                 "separate GEMMs");
  }
  if (cfg.backend() != BackendKind::sm80) return;
  LinearChain chain = linear_chain(cfg, /*allow_bias=*/false);
  EpiCategory unsupported = chain.unsupported ? epi_info(chain.unsupported->kind).category : EpiCategory::store;
  if (!chain.unsupported || unsupported == EpiCategory::vector || unsupported == EpiCategory::aux ||
      unsupported == EpiCategory::reduce)
    return;  // vectors, aux outputs and reductions were C419
  const EpiOp& op = *chain.unsupported;
  bool residual_type = epi_info(op.kind).category == EpiCategory::source && op.tensor &&
                       op.tensor->dtype.value != cfg.output().dtype.value;
  diags.report(RuleId::C420, op.span,
               residual_type
                   ? fmt::format("the 2.x grouped kernel reads C as the output's type `{}`, not `{}`",
                                 dtype_name(cfg.output().dtype.value), dtype_name(op.tensor->dtype.value))
                   : fmt::format("the 2.x grouped kernel's epilogue computes act(alpha * acc + beta * C): at most one "
                                 "`scale`, then one `residual`, then one activation; `{}` does not fit there",
                                 epi_info(op.kind).name),
               residual_type ? fmt::format("declare C as `{}`", dtype_name(cfg.output().dtype.value))
                             : "reorder the chain into scale >> residual >> activation, or target `sm90a` (its "
                               "pointer-array kernel takes any elementwise chain)");
}

}  // namespace ucut::rules
