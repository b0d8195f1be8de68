// suite/lower_pipeline.h — a suite problem whose chain holds several GEMMs or convolutions (an MLP's linear
// layers, a depthwise-separable convolution) as a pipeline problem (docs/problems.md, `op = "pipeline"`): each
// main op starts a stage, the elementwise ops after it are that stage's epilogue (suite/lower_chain.h), and each
// stage reads the one before. Both files are generated: the pipeline spec that is the problem's semantics (every
// extent a number, the problem's one size; filters and channel counts as the chain gives them) and the problem
// file that names it, with the convolution stages' geometry in its shape. The problem is read back through the
// problem reader (problem/read.h) with the spec held in memory, so it is exactly what `ucutlass run` would read
// from the two files.
#pragma once

#include <string>
#include <variant>

#include "problem/problem.h"
#include "suite/report.h"

namespace ucut::suite {

/// Whether the chain of `p` has more than one main op (a pipeline, whether or not it lowers).
bool is_pipeline_chain(const Problem& p);

/// The pipeline problem of `c` (its syntax holds both generated texts), or why there is none: "op 4 (sum): ...".
std::variant<ucut::Problem, std::string> lower_pipeline_problem(const Checked& c);

}  // namespace ucut::suite
