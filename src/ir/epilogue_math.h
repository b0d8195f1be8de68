// ir/epilogue_math.h — the reference semantics of every epilogue stage (the `formula` column of
// ir/epilogues.def), in double precision, for host and device. The harness's reference epilogue uses
// exactly these; the emitted kernels use CUTLASS's functors, so the two stay independent.
#pragma once

#include <math.h>

#include "support/host_device.h"

#include "ir/epilogue_ops.h"
#include "ir/expr.h"


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

/// One step of an `expr(...)` program (ir/expr_functions.def) on operands a (and b for binary ones).
UCUT_HD inline double expr_apply(ExprCode c, double a, double b) {
  switch (c) {
    case ExprCode::neg: return -a;
    case ExprCode::add: return a + b;
    case ExprCode::sub: return a - b;
    case ExprCode::mul: return a * b;
    case ExprCode::div: return a / b;
    case ExprCode::relu: return activation(EpiKind::relu, a, 0, 0);
    case ExprCode::sigmoid: return sigmoid(a);
    case ExprCode::tanh: return tanh(a);
    case ExprCode::gelu: return activation(EpiKind::gelu, a, 0, 0);
    case ExprCode::gelu_tanh: return activation(EpiKind::gelu_tanh, a, 0, 0);
    case ExprCode::silu: return activation(EpiKind::silu, a, 0, 0);
    case ExprCode::softplus: return softplus(a, 1.0, 20.0);
    case ExprCode::mish: return activation(EpiKind::mish, a, 0, 0);
    case ExprCode::exp: return exp(a);
    case ExprCode::log: return log(a);
    case ExprCode::abs: return fabs(a);
    case ExprCode::sqrt: return sqrt(a);
    case ExprCode::max: return fmax(a, b);
    case ExprCode::min: return fmin(a, b);
    default: return a;  // x, constants and loads are pushed, not applied
  }
}

/// Evaluates a postfix program at x (at most 16 values deep; lowering keeps programs within 32 steps). A
/// family kernel's program also reads its operands: `load(i)` pushes operands[i] (NaN without them, or past
/// `count`).
UCUT_HD inline double expr_eval(const ExprOp* program, int len, double x, const double* operands = nullptr,
                                int count = 0) {
  double stack[16];
  int top = 0;
  for (int i = 0; i < len; ++i) {
    ExprCode c = program[i].code;
    if (c == ExprCode::x || c == ExprCode::constant || c == ExprCode::load) {
      double value = c == ExprCode::x ? x : program[i].value;
      if (c == ExprCode::load) {
        int operand = int(program[i].value);
        value = operands && operand >= 0 && operand < count ? operands[operand] : NAN;
      }
      if (top < 16) stack[top++] = value;
      continue;
    }
    bool binary = c == ExprCode::add || c == ExprCode::sub || c == ExprCode::mul || c == ExprCode::div ||
                  c == ExprCode::max || c == ExprCode::min;
    if (top < (binary ? 2 : 1)) return NAN;  // malformed program
    double b = binary ? stack[--top] : 0.0;
    double a = stack[top - 1];
    stack[top - 1] = expr_apply(c, a, b);
  }
  return top == 1 ? stack[0] : NAN;
}

}  // namespace ucut::ref
