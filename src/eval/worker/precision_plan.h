// eval/worker/precision_plan.h — whether a shape's precision can be measured (eval/precision.h) and, when it
// can, which of B's entries the probe makes tiny so that whole output columns are. CUDA-free: unit-tested.
#pragma once

#include <cstdint>
#include <string>

#include "eval/worker/problem_desc.h"
#include "problem/input_draw.h"
#include "problem/shape.h"

namespace ucut::worker {

/// Output column n (of D as a row-major [L, M, N] matrix) is tiny when probe_wide(seed, n % period); B's
/// entry at (row, col) is scaled when probe_wide(seed, (by_row ? row : col) % period). GEMM: B's columns,
/// period N. Convolutions (operand_geometry.h's matrices): fprop W's rows (output channels), period K; dgrad
/// W's columns and wgrad X's columns, period C / groups (the channel within its group, which every output
/// column n of DX [pixels, C] and DW [K, taps · C/G] reads only through such entries).
struct PrecisionPlan {
  bool measured = false;
  std::string why_not;  // when not measured: the shape's precision_note
  bool by_row = false;
  int64_t period = 0;
};

/// Measured: a single (or batched) GEMM or a convolution with f32 operands (a problem that accepts TF32 too:
/// its inputs are on the TF32 grid), an f32 D (a narrower D's own rounding would hide the operands') and
/// signed inputs (unsigned ones make the fp32 accumulation error grow with K and bias truncation errors).
PrecisionPlan precision_plan(const ProblemDesc& p, bool grouped, const ConvShape& conv, int64_t n,
                             const InputDraws& draws);

}  // namespace ucut::worker
