// eval/worker/error_bound.cpp — chain gains and their composition over a pipeline's stages.
#include "eval/worker/error_bound.h"

#include <algorithm>
#include <cmath>

#include "eval/compare.h"
#include "ir/epilogue_math.h"

namespace ucut::worker {
namespace {

/// max(1, max |f'(x)|) of an expression over x in [-8, 8], by central differences on a 1/16 grid.
double expr_slope(const ExprOp* program, int len) {
  double slope = 1.0;
  for (int i = -128; i <= 128; ++i) {
    double x = i / 16.0, h = 1e-4;
    double d = (ref::expr_eval(program, len, x + h) - ref::expr_eval(program, len, x - h)) / (2 * h);
    if (std::isfinite(d)) slope = std::max(slope, std::fabs(d));
  }
  return slope;
}

}  // namespace

double chain_gain(const ProblemDesc& p, int upto) {
  double g = (p.scale_a ? kScaleA : 1.0) * (p.scale_b ? kScaleB : 1.0);
  for (int i = 0; i < upto && i < p.chain.count; ++i) {
    const RefStage& st = p.chain.stages[i];
    if (st.kind == EpiKind::scale) g *= std::fabs(p.scalars[st.slot]);
    if (epi_info(st.kind).category == EpiCategory::activation) g *= 1.2;
    if (st.kind == EpiKind::expr) g *= expr_slope(p.chain.program + st.expr_begin, st.expr_len);
  }
  return g;
}

double operand_roundoff(DType stored, MathMode reader_math) {
  if (stored == DType::f32 && reader_math == MathMode::tf32) stored = DType::tf32;
  switch (stored) {
    case DType::tf32:
    case DType::f16: return std::ldexp(1.0, -11);
    case DType::bf16: return std::ldexp(1.0, -8);
    case DType::e4m3: return std::ldexp(1.0, -4);
    case DType::e5m2: return std::ldexp(1.0, -3);
    default: return 0;
  }
}

double pipeline_acc_eps(const std::vector<StageError>& stages) {
  if (stages.empty()) return 0;
  std::vector<double> downstream(stages.size(), 0.0);  // per stage: max G_c over the stages c that read it
  downstream.back() = 1;
  double eps = 0;
  for (size_t s = stages.size(); s-- > 0;) {
    double to_output = stages[s].gain * downstream[s];  // G_s
    for (int p : stages[s].producers) downstream[p] = std::max(downstream[p], to_output);
    eps += (accumulation_eps(stages[s].k) + stages[s].read_roundoff) * to_output;
  }
  return eps;
}

}  // namespace ucut::worker
