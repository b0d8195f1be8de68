// eval/worker/precision_plan.cpp — see precision_plan.h.
#include "eval/worker/precision_plan.h"

#include <fmt/format.h>

namespace ucut::worker {

PrecisionPlan precision_plan(const ProblemDesc& p, bool grouped, const ConvShape& conv, int64_t n,
                             const InputDraws& draws) {
  PrecisionPlan plan;
  if (grouped) {
    plan.why_not = "a grouped GEMM (not measured)";
  } else if (p.a.dtype != DType::f32 || p.b.dtype != DType::f32) {
    plan.why_not = fmt::format("operands {} and {}: only f32 operands are measured", dtype_name(p.a.dtype),
                               dtype_name(p.b.dtype));
  } else if (p.d.dtype != DType::f32) {
    plan.why_not =
        fmt::format("D is stored as {}, whose rounding hides the operands'", dtype_name(p.d.dtype));
  } else if (draws.a == InputDraw::rand || draws.b == InputDraw::rand) {
    plan.why_not = "unsigned inputs (--inputs framework): only signed inputs are measured";
  } else {
    plan.measured = true;
    if (conv.dims == 0) {
      plan.period = n;
    } else if (conv.kind == ConvKind::fprop) {
      plan.by_row = true;
      plan.period = conv.k;
    } else {
      plan.period = conv.group_c();
    }
  }
  return plan;
}

}  // namespace ucut::worker
