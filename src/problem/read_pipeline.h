// problem/read_pipeline.h — a pipeline problem (`op = "pipeline"`): its semantics come from a pipeline spec
// (`semantics = "spec.ucut"`, relative to the problem file), read for what it computes — each stage's operator,
// operand types and layouts, links, conversions and epilogue — never for its tuning. Shapes give the spec's
// symbols: { M = 4096, K = 4096, N = 16384, P = 4096, label = ".." }; each stage's GEMM extents follow from them,
// and a convolution stage's padding, stride, dilation and groups come from a table named after the stage.
#pragma once

#include <toml++/toml.h>

#include "problem/problem.h"
#include "support/toml_reader.h"

namespace ucut {

/// Fills `p` (semantics, pipeline, shapes) from the problem file's table `root`; false after reporting why (H003,
/// H004, H007 at the offending key). `semantics`, when given, is the spec that `semantics = "..."` names, already in
/// memory (a suite problem lowered to a pipeline, suite/lower_pipeline.h); otherwise the file is read.
bool read_pipeline_problem(TomlReader& toml, const toml::table& root, Problem& p,
                           const SourceFile* semantics = nullptr);

}  // namespace ucut
