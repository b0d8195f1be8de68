// eval/pipeline_problem.h — a pipeline problem (`op = "pipeline"`): its semantics come from a pipeline spec
// (`semantics = "spec.ucut"`, relative to the problem file), read for what it computes — each stage's operator,
// operand types and layouts, links, conversions and epilogue — never for its tuning. Shapes give the spec's
// symbols: { M = 4096, K = 4096, N = 16384, P = 4096, label = ".." }; each stage's GEMM extents follow from them.
#pragma once

#include <optional>
#include <string>
#include <toml++/toml.h>

#include "eval/problem.h"

namespace ucut {

/// Fills `p` (semantics, pipeline, shapes) from a problem file's table; false with `error` naming the field.
bool read_pipeline_problem(const toml::table& t, const std::string& file, Problem& p, std::string* error);

/// Why `kernel` does not compute the pipeline problem (stage count, a stage's operator, types or chain, a link or a
/// conversion), or nullopt.
std::optional<std::string> pipeline_mismatch(const Problem& problem, const PipelineConfig& kernel);

/// Why `kernel` cannot run `shape` (a stage's operand alignment, named with its stage), or nullopt.
std::optional<std::string> pipeline_shape_violation(const PipelineConfig& kernel, const GemmShape& shape);

}  // namespace ucut
