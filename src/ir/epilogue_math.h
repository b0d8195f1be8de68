// ir/epilogue_math.h — the reference semantics of every epilogue stage (the `formula` column of
// ir/epilogues.def), in double precision, for host and device. The harness's reference epilogue uses
// exactly these; the emitted kernels use CUTLASS's functors, so the two stay independent.
#pragma once

#include <math.h>

#include "ir/epilogue_ops.h"

#if defined(__CUDACC__)
#define UCUT_HD __host__ __device__
#else
#define UCUT_HD
#endif

namespace ucut::ref {

UCUT_HD inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

UCUT_HD inline double softplus(double x, double beta, double threshold) {
  return beta * x > threshold ? x : log1p(exp(beta * x)) / beta;
}

/// Applies activation `k` with its parameters (epilogues.def order) to x.
UCUT_HD inline double activation(EpiKind k, double x, double p0, double p1) {
  switch (k) {
    case EpiKind::relu: return x > 0 ? x : 0.0;
    case EpiKind::leaky_relu: return x > 0 ? x : p0 * x;
    case EpiKind::gelu: return 0.5 * x * (1.0 + erf(x * 0.70710678118654752440));
    case EpiKind::gelu_tanh: {
      const double c = 0.79788456080286535588;  // sqrt(2/pi)
      return 0.5 * x * (1.0 + tanh(c * (x + 0.044715 * x * x * x)));
    }
    case EpiKind::silu: return x * sigmoid(x);
    case EpiKind::sigmoid: return sigmoid(x);
    case EpiKind::tanh: return tanh(x);
    case EpiKind::hardswish: return x * fmin(fmax(x + 3.0, 0.0), 6.0) / 6.0;
    case EpiKind::clamp:
    case EpiKind::hardtanh: return fmin(fmax(x, p0), p1);
    case EpiKind::mish: return x * tanh(softplus(x, 1.0, 20.0));
    case EpiKind::softplus: return softplus(x, p0, p1);
    default: return x;
  }
}

}  // namespace ucut::ref
