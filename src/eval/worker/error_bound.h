// eval/worker/error_bound.h — the accumulation term of an output's tolerance (Tolerance::acc_eps, which multiplies
// the reference's Σ|a||b|): how far an epilogue chain amplifies the accumulator's rounding, and how the stages of a
// pipeline compose theirs. No CUDA headers: unit-tested without a toolkit.
#pragma once

#include <vector>

#include "eval/worker/problem_desc.h"

namespace ucut::worker {

/// The FP8 dequantization scales the harness hands a `scaled` A and B: powers of two, exact.
constexpr float kScaleA = 0.5f, kScaleB = 0.25f;

/// How much p's chain can amplify an accumulator error up to stage `upto` (scales, FP8 scales, activations with
/// slopes up to 1.2, an expression's largest slope on [-8, 8]; vectors are drawn in [-1, 1]).
double chain_gain(const ProblemDesc& p, int upto);

/// The relative error a GEMM may see in an operand stored as `stored` by an earlier stage, beyond what the
/// reference (which rounds it the same way) sees: a value within tolerance can round to the neighbouring grid
/// point, about one unit roundoff of the type (bf16 2^-8, f16 2^-11). f32 adds nothing (its only rounding is the
/// accumulation's own, already in the producer's term) unless the reader multiplies in TF32 (2^-11).
double operand_roundoff(DType stored, MathMode reader_math);

/// One pipeline stage's share of the error in the pipeline's output.
struct StageError {
  int64_t k = 0;               // its GEMM's reduction length
  double read_roundoff = 0;    // Σ operand_roundoff over its operands that earlier stages produce
  double gain = 1;             // chain_gain of its whole chain
  std::vector<int> producers;  // the earlier stages it reads
};

/// acc_eps of a pipeline's output (its last stage's D) against the last stage's Σ|a||b|:
///   Σ_s (accumulation_eps(k_s) + read_roundoff_s) · G_s,   G_last = gain_last,
///   G_s = gain_s · max { G_c : stage c reads stage s }.
/// Each stage's accumulation rounding and the rounding of the intermediates it reads are errors relative to its
/// accumulator's scale; its chain amplifies them by its gain, and every stage on the way to the output carries them
/// through its own accumulator and chain. The simplification: every stage's error is taken at the last stage's
/// Σ|a||b|. A one-stage pipeline gets a kernel's term, accumulation_eps(k) · gain.
double pipeline_acc_eps(const std::vector<StageError>& stages);

}  // namespace ucut::worker
