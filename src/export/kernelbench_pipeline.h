// export/kernelbench_pipeline.h — `ucutlass export --kernelbench PROBLEM SPEC` for a pipeline: a suite
// problem whose chain goes on past an epilogue lowers to a pipeline problem (suite/lower_pipeline.h), and
// SPEC is a `pipeline` spec that computes it. The output is one KernelBench custom-model source, as for a
// single kernel (export/kernelbench_module.h): the emitted pipeline and a torch binding embedded, built by
// load_inline.
//
// Whether the spec computes the problem is decided as `ucutlass run SPEC --problem` decides it for pipelines:
// pipeline_mismatch (problem/match.h: stage count, each stage's operator, types, chain and links; X003 at the
// stage, operand or epilogue stage that differs) and shape_violation per stage (check/shape_rules.h; X004).
// X002: the problem lowers to no pipeline (lowering's reason); X005 warns when a stage multiplies in lower
// precision than the problem.
//
// ModelNew's __init__ creates the modules and parameters of KernelBench's Model in chain order (export/
// torch_modules.h; nn.Parameter(torch.randn(shape)) for a `param`). Its forward does the layout glue in torch
// (so it is timed): channels-last copies of a convolution's input and weight, a Linear weight as its
// column-major .t(), each vector as its 1-D view, each tensor a family stage reads packed in the order of its
// declared extents; the binding fills ucut_pipeline_args (per stage a ucut_gemm_args or a ucut_memop_args;
// null where the pipeline binds an earlier stage's output), allocates the output and the workspace and runs
// the pipeline on the current CUDA stream. The output comes back in the memory order the last stage stores it
// and is permuted and reshaped to Model's output (a copy where the order differs, so timed too). Extents,
// geometry and scalars are the problem's (one shape): the binding checks every tensor against them.
#pragma once

#include <optional>
#include <string>

#include "emit/backend.h"
#include "ir/pipeline.h"
#include "suite/report.h"
#include "support/diag.h"

namespace ucut::interop {

/// The ModelNew source for `problem` running pipeline `p` (checked, emitted as `kernel`), or nullopt after
/// reporting why into `diags`, at the spec's spans.
std::optional<std::string> kernelbench_pipeline_module(const PipelineConfig& p, const EmittedKernel& kernel,
                                                       const suite::Checked& problem, DiagEngine& diags);

}  // namespace ucut::interop
