// suite/lower.h — a suite problem as a harness problem (docs/problems.md), so `ucutlass run SPEC --problem` can
// verify and time a kernel on it: possible when the chain is one GEMM (matmul, batched matmul, linear) or one
// convolution (forward, transposed, grouped, depthwise) followed only by stages a DSL epilogue computes (scalars,
// activations, per-column / per-channel vectors). Anything else gets the reason it cannot be lowered yet.
//
// The harness problem keeps the suite's semantics and tolerance. Two representation changes are stated in the
// file it writes: GEMM operands keep PyTorch's storage (a transposed operand becomes a column-major one; a
// linear layer's weight [N, K] is B column-major), and convolutions run channels-last (the harness makes NHWC
// tensors; PyTorch's module takes NCHW, so a layer that starts from NCHW also pays a layout conversion).
#pragma once

#include <string>
#include <variant>

#include "suite/report.h"

namespace ucut::suite {

struct Lowered {
  std::string op;    // the harness operator: gemm, batched_gemm, conv2d, ...
  std::string toml;  // the problem file's text
};

/// The harness problem computing `c`, or why there is none.
std::variant<Lowered, std::string> lower_to_harness(const Checked& c);

}  // namespace ucut::suite
