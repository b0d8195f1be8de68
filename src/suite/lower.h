// suite/lower.h — a suite problem as a problem (problem/problem.h), built directly, so `ucutlass run SPEC
// --problem` can verify and time a kernel on it: possible when the chain is one GEMM (matmul of an input or a
// parameter, batched matmul, linear) or one convolution (forward, transposed, grouped, depthwise) followed
// only by stages a DSL epilogue computes (scalars, activations, per-column / per-channel vectors, an added
// input, a saved value read back within an `expr`: suite/lower_chain.h). Anything else gets the reason it
// cannot be lowered yet.
//
// The problem keeps the suite's semantics and tolerance. Two representation changes are stated in its
// provenance (the comments of the file `suite lower` writes): GEMM operands keep PyTorch's storage (a
// transposed operand becomes a column-major one; a linear layer's weight [N, K] is B column-major), and
// convolutions run channels-last (the harness makes NHWC tensors; PyTorch's module takes NCHW, so a layer
// that starts from NCHW also pays a layout conversion).
#pragma once

#include <string>
#include <variant>

#include "problem/problem.h"
#include "problem/read_shape.h"
#include "suite/lower_chain.h"
#include "suite/report.h"

namespace ucut::suite {

/// The problem computing `c`, or why there is none.
std::variant<ucut::Problem, std::string> lower_to_problem(const Checked& c);

/// The problem and, per stage of its epilogue chain, the tensor of `c`'s framework that feeds it.
struct Lowered {
  ucut::Problem problem;
  std::vector<StageSource> sources;
};
std::variant<Lowered, std::string> lower_with_sources(const Checked& c);

/// A suite convolution op (`conv`, `conv_transpose`) on an input of PyTorch shape `x` ([N, C, spatial...]): the IR
/// operator (grouped and depthwise 2-D forward ones told apart) and its geometry, or why it has none.
struct ConvOf {
  ucut::OpKind op;
  ConvDecl decl;
};
std::variant<ConvOf, std::string> conv_of(const Op& main, const Shape& x);

}  // namespace ucut::suite
