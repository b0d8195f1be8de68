// check/conversion_rules.cpp — `from(T)`: which conversions a kernel or pipeline runs (conversion_error, shared with
// pipeline_rules.cpp's C504), and where a kernel may convert its own operands (C424).
#include <fmt/format.h>

#include "check/check.h"

namespace ucut {

std::optional<ConversionError> conversion_error(DType from, const TensorDecl& t) {
  auto convertible = [](DType d) { return d == DType::f32 || d == DType::f16 || d == DType::bf16; };
  if (from == t.dtype.value)
    return ConversionError{std::nullopt, fmt::format("`from({})` on a {} operand converts nothing", dtype_name(from), dtype_name(from)),
                   "drop `from(...)`"};
  if (!convertible(from) || !convertible(t.dtype.value))
    return ConversionError{std::nullopt, fmt::format("no conversion from {} to {}", dtype_name(from), dtype_name(t.dtype.value)),
                   "conversions run between f32, f16 and bf16"};
  if (t.scaled.value)
    return ConversionError{t.scaled.span, fmt::format("operand `{}` is converted and `scaled`", t.name.value),
                   "a scaled FP8 operand is quantized by its caller: declare it in its stored type"};
  return std::nullopt;
}

namespace rules {

void check_conversions(const KernelConfig& cfg, DiagEngine& diags) {
  for (const TensorDecl* t : {&cfg.a, &cfg.b}) {
    if (!t->from) continue;
    if (!op_is_pipeline_stage(cfg.op.value)) {
      diags.report(RuleId::C424, t->from->span,
                   fmt::format("a `{}` kernel does not convert its operands", op_name(cfg.op.value)),
                   "declare the operand in the type its caller passes: conversions run on GEMMs and on "
                   "convolutions whose output is an activation");
      continue;
    }
    if (auto p = conversion_error(t->from->value, *t))
      diags.report(RuleId::C424, p->span.value_or(t->from->span), p->message, p->hint);
  }
}

}  // namespace rules
}  // namespace ucut
