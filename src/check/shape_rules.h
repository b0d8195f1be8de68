// check/shape_rules.h — a kernel against the sizes a problem asks it to run (C601-C611): leading dimensions and
// channel counts that break an operand's declared alignment (the packed layouts the harness uses), and geometry a
// kernel's backend does not compute (a filter size fixed at compile time, TMA im2col's limits, the SM90 transposed
// convolution's phase count, CUTLASS 2.x's 2 GiB and dilation limits). The kernel would refuse these at run time;
// these rules say which operand and extent before any GPU is involved, at the spec's own spans. Goldens:
// tests/golden/check/C6xx.ucut, whose cases name their shape with `# shape: { ... }`.
#pragma once

#include <optional>

#include "ir/kernel_config.h"
#include "ir/pipeline.h"
#include "problem/shape.h"
#include "support/diag.h"

namespace ucut {

/// The first way `kernel` cannot run `shape` (for a grouped GEMM, any problem's, named by its index from 1), or
/// nullopt. Order: a grouped problem's alignment; a convolution's geometry; the operands' alignment.
std::optional<Diagnostic> shape_violation(const KernelConfig& kernel, const GemmShape& shape);
/// The same for each stage of a pipeline against its own sizes; the message names the stage.
std::optional<Diagnostic> shape_violation(const PipelineConfig& kernel, const GemmShape& shape);

/// Reports shape_violation of every shape into `diags` (each at most once), the message prefixed by the shape's
/// label (or its index from 1).
void check_shapes(const KernelConfig& kernel, const std::vector<GemmShape>& shapes, DiagEngine& diags);
void check_shapes(const PipelineConfig& kernel, const std::vector<GemmShape>& shapes, DiagEngine& diags);

}  // namespace ucut
