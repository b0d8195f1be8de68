// eval/worker/ref_chain.h — the reference epilogue: the problem's `>>` chain (ref_stages.h) evaluated in double
// with the formulas of ir/epilogue_math.h, on host (CPU FP64 reference) and device (after the cuBLAS FP32 GEMM).
// aux_store and reduction stages capture x at their place in the chain into an [L, M, N] float buffer; the
// harness reduces a reduction's capture on the host (eval/reduction.h).
#pragma once

#include <cstdint>

#include "eval/worker/element.cuh"
#include "eval/worker/ref_stages.h"
#include "ir/epilogue_math.h"

namespace ucut::worker {

/// Inputs of the chain for one element, all float and row-major [L, M, N] (vectors: length M or N).
struct RefInputs {
  const float* c = nullptr;
  const float* vectors[8] = {};
  float scalars[8] = {};
  float* aux[kMaxRefAux] = {};  // per aux slot: where aux_store / reduction stages capture x (null: not captured)
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
      case EpiKind::row_sum:
      case EpiKind::row_max:
      case EpiKind::col_sum:
      case EpiKind::col_max:  // x passes on unchanged; the reduction itself runs on the host over the capture
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
