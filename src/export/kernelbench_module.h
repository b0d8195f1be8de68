// export/kernelbench_module.h — `ucutlass export --kernelbench PROBLEM SPEC`: a KernelBench custom-model
// source
// (`class ModelNew(nn.Module)`) whose forward runs the spec's kernel, built by
// torch.utils.cpp_extension.load_inline from the emitted CUDA source and the torch binding
// (export/torch_binding.h) embedded in the file.
//
// Whether the spec computes the problem is decided as `ucutlass run SPEC --problem` decides it: the suite
// problem is lowered (suite/lower.h) to a problem, compared with the spec by semantic_mismatch
// (problem/match.h: operator, operand types and layouts, the epilogue stage by stage) and its shape checked by
// the shape rules (check/shape_rules.h). Refusals: X002 (the problem does not lower), X003 (the spec computes something else),
// X004 (the spec cannot run the shape); X005 warns when the kernel multiplies in lower precision than the
// problem states.
//
// ModelNew takes KernelBench's init inputs (`*init_inputs`: the kernel is compiled for the problem's sizes
// and constants) and creates the parameters the reference Model creates, with the same modules in the same
// order (the mapping of bench/kernelbench/chain.py: nn.Linear, nn.ConvNd, nn.ConvTransposeNd,
// nn.Parameter(torch.randn(shape)) for a `param` operand), so KernelBench's seeded comparison compares equal
// weights. forward takes the problem's inputs and does the layout glue itself, so its cost is timed:
// channels-last copies of a convolution's input and weight, a transposed operand or a Linear weight passed as
// a column-major view, per-channel parameters as vectors.
#pragma once

#include <optional>
#include <string>

#include "emit/backend.h"
#include "ir/kernel_config.h"
#include "suite/report.h"
#include "support/diag.h"

namespace ucut::interop {

/// Where `spec` departs from the problem's semantics `want`: its operator, the first operand whose type or
/// layout differs, else the first epilogue stage that differs (the kind, then the parameters), else the
/// chain's start.
Span mismatch_span(const KernelConfig& want, const KernelConfig& spec);

/// The ModelNew source for `problem` running `cfg` (checked, exportable, emitted as `kernel`), or nullopt
/// after reporting why into `diags`, at the spec's spans.
std::optional<std::string> kernelbench_module(const KernelConfig& cfg, const EmittedKernel& kernel,
                                              const suite::Checked& problem, DiagEngine& diags);

}  // namespace ucut::interop
