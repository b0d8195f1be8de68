// tests/compile/prologue_functions.cu — the epilogue functors of emit/templates/kernel_prologue.inc (pasted into
// every emitted kernel) against the harness's reference semantics (ir/epilogue_math.h), on the host: nvcc compiles
// them as CUTLASS_HOST_DEVICE code, so this checks the algebra without a GPU (the device's expf differs from the
// host's by at most 2 ulp; GPU runs verify the kernels themselves). Exit 0 when every value is within tolerance.
#include <cmath>
#include <cstdio>

#include "cutlass/array.h"
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "ir/epilogue_math.h"

namespace prologue {
using namespace cute;
#include "emit/templates/kernel_prologue.inc"
}  // namespace prologue

namespace {

double mish_ref(double x) { return ucut::ref::activation(ucut::EpiKind::mish, x, 0, 0); }

int failures = 0;

void expect_close(const char* what, double x, float got, double want) {
  // 8 f32 ulp of the reference, or an absolute 1e-37 where it underflows.
  double tol = std::max(8 * std::ldexp(1.0, std::ilogb(std::abs(want)) - 23), 1e-37);
  if (std::isnan(got) || std::abs(got - want) > tol) {
    if (++failures <= 20) std::printf("FAIL %s(%.9g) = %.9g, want %.9g (tolerance %.3g)\n", what, x, got, want, tol);
  }
}

}  // namespace

int main() {
  prologue::ucut_mish<float> mish;
  prologue::ucut_softplus<float> softplus;
  prologue::ucut_softplus<float>::Arguments sp_args{2.f, 20.f};
  int checked = 0;
  // Dense near zero and the thresholds, sparse in the tails: [-120, 120].
  for (double x = -120; x <= 120; x += (std::abs(x) < 25 ? 1.0 / 512 : 0.25)) {
    float xf = float(x);
    expect_close("mish", xf, mish(xf), mish_ref(xf));
    expect_close("softplus(beta 2)", xf, softplus(xf, sp_args), ucut::ref::softplus(xf, 2.0, 20.0));
    // `expr(...)`'s softplus and mish (ir/expr_functions.def) against expr_apply, the reference's formulas.
    expect_close("expr softplus", xf, prologue::ucut_softplus_default<float>{}(xf),
                 ucut::ref::expr_apply(ucut::ExprCode::softplus, xf, 0));
    expect_close("expr mish", xf, prologue::ucut_mish<float>{}(xf), ucut::ref::expr_apply(ucut::ExprCode::mish, xf, 0));
    ++checked;
  }
  for (float x : {0.f, -0.f, 1e-30f, -1e-30f, 20.f, std::nextafter(20.f, 21.f), 88.f, -88.f, 1e30f, -1e30f})
    expect_close("mish", x, mish(x), mish_ref(x));
  cutlass::Array<float, 4> v{}, y{};
  for (int i = 0; i < 4; ++i) v[i] = -3.f + 2.f * i;
  y = prologue::ucut_mish<cutlass::Array<float, 4>>{}(v);
  for (int i = 0; i < 4; ++i) expect_close("mish[array]", v[i], y[i], mish_ref(v[i]));
  std::printf("%d of %d values out of tolerance\n", failures, checked);
  return failures == 0 ? 0 : 1;
}
