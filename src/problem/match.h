// problem/match.h — whether a kernel computes a problem: the same operator, operand types and layouts, and epilogue
// chain stage by stage (scalar values, alignments and padding are how, not what); and whether it multiplies in lower
// precision than the problem states (allowed, but labelled: a precision change is never hidden in a speedup).
#pragma once

#include <optional>
#include <string>

#include "ir/kernel_config.h"
#include "ir/pipeline.h"
#include "problem/problem.h"

namespace ucut {

/// Why `kernel` does not compute `problem` (operator, operand types/layouts, epilogue stages), or nullopt.
std::optional<std::string> semantic_mismatch(const Problem& problem, const KernelConfig& kernel);
/// Where a pipeline spec departs from its problem: the stage (from 0) and which part of it, and why in words.
struct PipelineDeparture {
  enum class Part { stages, kind, family, config, operand_a, operand_b };
  Part part = Part::stages;  // stages: the stage count (or a single-kernel problem); kind: GEMM/conv vs family stage
  size_t stage = 0;
  std::string why;
};
/// The first place `kernel` departs from the pipeline problem (stage count, a stage's kind, a family stage's
/// config or links, a GEMM or convolution stage's operator, types or chain, an operand's link or conversion), or
/// nullopt when it computes it.
std::optional<PipelineDeparture> pipeline_departure(const Problem& problem, const PipelineConfig& kernel);
/// pipeline_departure's why, or nullopt.
std::optional<std::string> pipeline_mismatch(const Problem& problem, const PipelineConfig& kernel);

/// Whether the kernel converts A or B (`from(T)`) to a type with fewer bits than the caller's.
bool narrows_operands(const KernelConfig& kernel);

/// What the kernel multiplies in, in words: "bf16 (operands converted from f32)", else its math mode ("tf32").
std::string multiply_precision(const KernelConfig& kernel);

/// True when the kernel multiplies in lower precision than the problem states (tf32 for an exact-f32
/// problem, or operands it converts to fewer bits): allowed, but reported as a precision change, never hidden in
/// a speedup.
bool precision_change(const Problem& problem, const KernelConfig& kernel);
/// The same for any stage of a pipeline.
bool precision_change(const Problem& problem, const PipelineConfig& kernel);

}  // namespace ucut
