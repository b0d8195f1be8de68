// check/epilogue_rules.cpp — what the fused epilogue may contain on the SM90 backend
// (C305, C406–C410, C412, W001, W004). Arity and argument kinds were checked while lowering (C401–C405, C411).
#include <fmt/format.h>

#include "abi/kernel_abi.h"
#include "check/check.h"
#include "check/mma_table.h"

namespace ucut::rules {
namespace {

bool one_of(DType t, std::initializer_list<DType> ts) { return std::find(ts.begin(), ts.end(), t) != ts.end(); }

void check_tensor_types(const KernelConfig& cfg, DiagEngine& diags) {
  const TensorDecl& d = cfg.output();
  bool int_out = cfg.acc.value == DType::i32;
  bool f64_out = cfg.acc.value == DType::f64;  // the 2.x DMMA kernels keep f64 through the epilogue
  for (const EpiOp& op : cfg.epilogue) {
    if (op.tensor) {
      const TensorDecl& t = *op.tensor;
      bool ok = (op.kind == EpiKind::residual
                     ? one_of(t.dtype.value, {DType::f16, DType::bf16, DType::f32})
                     : one_of(t.dtype.value, {DType::f16, DType::bf16, DType::f32, DType::e4m3, DType::e5m2}) ||
                           (int_out && one_of(t.dtype.value, {DType::i8, DType::i32}))) ||
                (f64_out && t.dtype.value == DType::f64);
      if (!ok)
        diags.report(RuleId::C412, t.dtype.span,
                     fmt::format("`{}` cannot be a `{}` tensor of the epilogue", dtype_name(t.dtype.value),
                                 epi_info(op.kind).name),
                     op.kind == EpiKind::residual
                         ? "read the residual as f16, bf16 or f32 (f64 after an f64 accumulator)"
                         : "write f16, bf16, f32 or FP8 (i8/i32 after an i32 accumulator, f64 after an f64 one)");
      if (t.scaled.value && op.kind != EpiKind::store)
        diags.report(RuleId::C407, t.scaled.span,
                     fmt::format("`scaled` is supported on A, B and D only, not on `{}`", t.name.value),
                     "remove `scaled`");
    }
    if (epi_info(op.kind).category == EpiCategory::vector &&
        !one_of(op.dtype.value, {DType::f16, DType::bf16, DType::f32}))
      diags.report(RuleId::C412, op.dtype.span,
                   op.dtype.span.implied
                       ? fmt::format("`{}` takes the output type `{}` by default, but per-channel vectors are f16, "
                                     "bf16 or f32",
                                     epi_info(op.kind).name, dtype_name(op.dtype.value))
                       : fmt::format("per-channel vectors are f16, bf16 or f32, not `{}`", dtype_name(op.dtype.value)),
                   fmt::format("give the vector's type: `{}({}, f32)`", epi_info(op.kind).name,
                               op.axis.value == Axis::row ? "row" : "col"));
    check_stage_values(op, diags);
    if (op.kind == EpiKind::residual && op.tensor->layout.value != d.layout.value)
      diags.report(
          RuleId::C408, op.tensor->layout.span,
          fmt::format("residual `{}` is `{}` but the output `{}` is `{}`", op.tensor->name.value,
                      layout_name(op.tensor->layout.value), d.name.value, layout_name(d.layout.value)),
          fmt::format("declare `{}` `{}` too", op.tensor->name.value, layout_name(d.layout.value)));
  }
}

void check_scales(const KernelConfig& cfg, DiagEngine& diags) {
  for (const TensorDecl* t : {&cfg.a, &cfg.b}) {
    if (t->scaled.value && !is_fp8(t->dtype.value))
      diags.report(RuleId::C407, t->scaled.span,
                   fmt::format("`{}` is `{}`; per-tensor scales dequantize FP8 only", t->name.value,
                               dtype_name(t->dtype.value)),
                   "remove `scaled`, or multiply with `>> scale(alpha)`");
    if (is_fp8(t->dtype.value) && !t->scaled.value)
      diags.report(RuleId::W001, t->span,
                   fmt::format("FP8 operand `{}` has no dequantization scale: values must already be in FP8 range",
                               t->name.value),
                   fmt::format("declare `{}: {}[...] {} scaled` to pass its scale at run time", t->name.value,
                               dtype_name(t->dtype.value), layout_name(t->layout.value)));
  }
  const TensorDecl& d = cfg.output();
  if (is_fp8(d.dtype.value) && !d.scaled.value)
    diags.report(RuleId::C406, d.span,
                 fmt::format("FP8 output `{}` needs a quantization scale: without one, results above {} saturate",
                             d.name.value, d.dtype.value == DType::e4m3 ? "448" : "57344"),
                 fmt::format("declare `{}: {}[...] {} scaled`", d.name.value, dtype_name(d.dtype.value),
                             layout_name(d.layout.value)));
  if (d.scaled.value && !is_fp8(d.dtype.value))
    diags.report(RuleId::C407, d.scaled.span,
                 fmt::format("`{}` is `{}`; output scales quantize to FP8 only", d.name.value, dtype_name(d.dtype.value)),
                 "remove `scaled`, or multiply with `>> scale(s)` before the store");
}

void check_parameter_slots(const KernelConfig& cfg, DiagEngine& diags) {
  int vectors = 0, scalars = 0, aux = 0;
  for (const EpiOp& op : cfg.epilogue) {
    EpiCategory c = epi_info(op.kind).category;
    bool over = false;
    if (c == EpiCategory::vector) over = ++vectors > UCUT_MAX_VECTORS;
    if (c == EpiCategory::scalar || c == EpiCategory::source) over = ++scalars > UCUT_MAX_SCALARS;
    if (c == EpiCategory::aux || c == EpiCategory::reduce) over = ++aux > UCUT_MAX_AUX;  // reductions use aux slots
    if (over)
      diags.report(RuleId::C409, op.span,
                   fmt::format("the kernel ABI carries at most {} vectors, {} scalars and {} aux outputs",
                               UCUT_MAX_VECTORS, UCUT_MAX_SCALARS, UCUT_MAX_AUX),
                   "fold constant stages together, e.g. two `scale` stages into one");
  }
}

/// The `scaled` modifier that makes a lone `store(...)` a fusion (scales are applied in the epilogue), or nullptr.
const TensorDecl* first_scaled(const KernelConfig& cfg) {
  for (const TensorDecl* t : {&cfg.a, &cfg.b, &cfg.output()})
    if (t->scaled.value) return t;
  return nullptr;
}

/// W004: a visitor tree is a tree, so every use of `x` re-evaluates the stages before the expression; that is free
/// for arithmetic but repeats residual loads, aux stores and reductions.
void check_expr_reuse(const KernelConfig& cfg, DiagEngine& diags) {
  for (size_t i = 0; i < cfg.epilogue.size(); ++i) {
    const EpiOp& op = cfg.epilogue[i];
    if (!op.expr || op.expr->x_uses < 2) continue;
    for (size_t j = 0; j < i; ++j) {
      EpiCategory c = epi_info(cfg.epilogue[j].kind).category;
      if (c != EpiCategory::source && c != EpiCategory::aux && c != EpiCategory::reduce) continue;
      Diagnostic& d = diags.report(
          RuleId::W004, op.span,
          fmt::format("`x` appears {} times, so `{}` before it runs {} times per element", op.expr->x_uses,
                      epi_info(cfg.epilogue[j].kind).name, op.expr->x_uses),
          "move the `expr` before the residual, aux_store or reduction stage, or use a built-in stage (e.g. `silu`)");
      d.notes.push_back(Label{cfg.epilogue[j].span, "repeated for each use of `x`"});
      break;
    }
  }
}

}  // namespace

void check_stage_values(const EpiOp& op, DiagEngine& diags) {
  if (op.kind == EpiKind::cast && !one_of(op.dtype.value, {DType::f16, DType::bf16, DType::f32}))
    diags.report(RuleId::C412, op.dtype.span,
                 fmt::format("`cast` rounds to f16, bf16 or f32, not `{}`", dtype_name(op.dtype.value)),
                 "declare FP8 results on the `store` instead");
  if ((op.kind == EpiKind::clamp || op.kind == EpiKind::hardtanh) && !(op.params[0] < op.params[1]))
    diags.report(
        RuleId::C410, op.span,
        fmt::format("`{}` bounds {} and {} leave no range", epi_info(op.kind).name, op.params[0],
                    op.params[1]),
        fmt::format("give a lower bound below the upper one, e.g. `{}(-1, 1)`", epi_info(op.kind).name));
}

void check_epilogue(const KernelConfig& cfg, DiagEngine& diags) {
  // The 2.x backend fuses through its visitor epilogue on every schedule; only SM90 needs a TMA epilogue. The
  // transposed epilogue of TF32 with A and B row-major cannot fuse at all (C216 says so).
  const EpiOp* fused = cfg.backend() == BackendKind::sm90 && !sm90_transposed_accumulators(cfg)
                           ? cfg.first_fused_stage()
                           : nullptr;
  if (fused) {
    EpilogueSchedule e = cfg.epilogue_schedule.value;
    const TensorDecl* scaled = cfg.epilogue.size() == 1 ? first_scaled(cfg) : nullptr;
    if (e != EpilogueSchedule::tma && e != EpilogueSchedule::tma_cooperative) {
      Diagnostic& d = diags.report(
          RuleId::C305, scaled ? scaled->scaled.span : fused->span,
          scaled ? fmt::format("`{}` is `scaled`: its scale is fused into the epilogue, which needs a TMA epilogue; "
                               "the schedule is `{}`",
                               scaled->name.value, epilogue_schedule_name(e))
                 : fmt::format("this epilogue fuses `{}`, which needs a TMA epilogue; the schedule is `{}`",
                               epi_info(fused->kind).name, epilogue_schedule_name(e)),
          cfg.kernel_schedule.value == KernelSchedule::tma_pingpong ||
                  cfg.kernel_schedule.value == KernelSchedule::tma_warpspecialized
              ? "use `epilogue = tma`"
              : "use `with_scheduler(tma_cooperative)` (tile M 128/256) or `with_scheduler(tma_pingpong)`");
      d.notes.push_back(Label{cfg.epilogue_schedule.span, cfg.epilogue_schedule.span.implied
                                                               ? "epilogue schedule chosen here by default"
                                                               : "epilogue schedule set here"});
    }
  }
  check_tensor_types(cfg, diags);
  check_scales(cfg, diags);
  check_parameter_slots(cfg, diags);
  check_expr_reuse(cfg, diags);
}

}  // namespace ucut::rules
