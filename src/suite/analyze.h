// suite/analyze.h — runs a problem's chain on shapes: the shape after every op, the output, the FLOPs PyTorch's
// FlopCounterMode counts (2 per multiply-add of matmuls, linears and convolutions; nothing else) and the minimum
// bytes (every input, parameter, buffer and the output touched once). Reports S010 where an op cannot apply to
// the value it receives and S011 where the [kernelbench] audit's numbers disagree with the chain's.
#pragma once

#include <optional>
#include <vector>

#include "suite/problem.h"
#include "support/diag.h"

namespace ucut::suite {

struct Analysis {
  std::vector<Shape> after_op;  // the running value after each op
  Shape output;
  double flops = 0;
  double input_elements = 0, param_elements = 0, buffer_elements = 0, output_elements = 0;

  double min_bytes(int element_bytes) const {
    return element_bytes * (input_elements + param_elements + buffer_elements + output_elements);
  }
};

/// Relative agreement S011 asks of the audit's gflop and min_bytes (they are rounded in the CSV).
inline constexpr double kAuditRelTolerance = 0.005;

/// nullopt when a shape error stops the chain (reported as S010).
std::optional<Analysis> analyze(const Problem& p, DiagEngine& diags);

}  // namespace ucut::suite
