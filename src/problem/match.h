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
/// Why `kernel` does not compute the pipeline problem (stage count, a stage's operator, types or chain, a link or a
/// conversion), or nullopt.
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
