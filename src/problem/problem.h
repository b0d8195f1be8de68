// problem/problem.h — a problem: WHAT must be computed (the operator, its operand types, the epilogue's reference
// semantics, shapes, tolerance), independent of HOW (the spec). One type for every source: a problem file
// (problem/read.h, docs/problems.md) or a suite problem lowered to one (suite/lower.h); written back to TOML only
// where a file is written (problem/print.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/ast.h"
#include "ir/kernel_config.h"
#include "ir/pipeline.h"
#include "problem/input_draw.h"
#include "problem/reference.h"
#include "problem/shape.h"
#include "problem/tolerance.h"

namespace ucut {

/// What a problem declares in the DSL's own syntax (dsl/ast.h), kept to write it back (problem/print.h): a kernel
/// problem's operand types and epilogue chain, or a pipeline problem's spec path. Immutable once built.
struct ProblemSyntax {
  TensorType a, b, d;          // element type and modifiers (`bf16 row`); the extents follow from the operator
  std::vector<Call> epilogue;  // the chain's stages before the store
  std::string pipeline_spec;   // a pipeline problem's `semantics`: the spec's path as written, relative to the file
  // A pipeline problem built from a suite problem (suite/lower_pipeline.h): the spec and the problem file's text,
  // written out side by side (problem/print.h); "" for one read from files.
  std::string pipeline_source, pipeline_problem;
  std::string provenance;      // comment lines saying where a built problem came from ("" for one read from a file)
};

struct Problem {
  std::string name;
  std::string path;  // the file it was read from, for messages
  std::shared_ptr<const ProblemSyntax> syntax;  // shared by copies: they declare the same thing
  KernelConfig semantics;                       // the reference semantics (a pipeline's last stage)
  std::optional<PipelineConfig> pipeline;       // a pipeline problem: every stage
  std::string pipeline_text;                    // its spec's text (the worker lowers its family stages from it)
  std::vector<GemmShape> shapes;
  Tolerance tolerance;
  bool tolerance_given = false;  // false: the default for its types (problem/tolerance.h)
  Reference reference = Reference::automatic;
  InputDraws framework_inputs;  // how the problem's framework draws its operands (`--inputs framework`)
};

}  // namespace ucut
