// eval/worker/ref_chain.h — the reference epilogue: the problem's `>>` chain evaluated in double with the
// formulas of ir/epilogue_math.h, on host (CPU FP64 reference) and device (after the cuBLAS FP32 GEMM).
#pragma once

#include <cstdint>

#include "eval/worker/element.cuh"
#include "ir/epilogue_math.h"

namespace ucut::worker {

constexpr int kMaxRefStages = 24;
constexpr int kMaxRefExprOps = 64;  // all `expr(...)` programs of a chain together

struct RefStage {
  EpiKind kind = EpiKind::store;
  double p0 = 0, p1 = 0;  // activation parameters
  int slot = -1;          // vector / scalar / aux slot
  bool per_row = false;   // vector stages: one value per M (true) or per N (false)
  DType dtype = DType::f32;  // cast target
  int expr_begin = 0, expr_len = 0;  // `expr(...)`: its postfix program in RefChain::program
};

struct RefChain {
  int count = 0;
  RefStage stages[kMaxRefStages];
  bool round_output = false;  // integer outputs: the reference rounds and saturates like the store does
  DType out = DType::f32;
  ExprOp program[kMaxRefExprOps];
  int program_len = 0;
};

/// Inputs of the chain for one element, all float and row-major [L, M, N] (vectors: length M or N).
struct RefInputs {
  const float* c = nullptr;
  const float* vectors[8] = {};
  float scalars[8] = {};
  float* aux[4] = {};
  float scale_ab = 1.f;  // scale_a * scale_b (FP8 operands)
  float scale_d = 1.f;   // FP8 output quantization scale
};

/// The chain applied to accumulator value `acc` at [b, m, n] (idx = row-major index).
__host__ __device__ inline float eval_chain(const RefChain& ch, const RefInputs& in, double acc, int64_t idx, int64_t m,
                                           int64_t n) {
  double x = acc * in.scale_ab;
  for (int i = 0; i < ch.count; ++i) {
    const RefStage& s = ch.stages[i];
    switch (s.kind) {
      case EpiKind::scale: x *= in.scalars[s.slot]; break;
      case EpiKind::residual: x += static_cast<double>(in.scalars[s.slot]) * in.c[idx]; break;
      case EpiKind::bias: x += in.vectors[s.slot][s.per_row ? m : n]; break;
      case EpiKind::channel_scale: x *= in.vectors[s.slot][s.per_row ? m : n]; break;
      case EpiKind::aux_store:
        if (in.aux[s.slot]) in.aux[s.slot][idx] = static_cast<float>(x);
        break;
      case EpiKind::cast: x = round_to(s.dtype, static_cast<float>(x)); break;
      case EpiKind::store: break;
      case EpiKind::expr: x = ref::expr_eval(ch.program + s.expr_begin, s.expr_len, x); break;
      default: x = ref::activation(s.kind, x, s.p0, s.p1); break;
    }
  }
  x *= in.scale_d;
  return ch.round_output ? round_to(ch.out, static_cast<float>(x)) : static_cast<float>(x);
}

}  // namespace ucut::worker
